import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { YtdlCodecs } from '@site/contracts';
import { z } from 'zod';

const run = promisify(execFile);

const PROBE_TIMEOUT_MS = 30_000;

/** The part of ffprobe's JSON read here; a cover picture (attached_pic) is not the video. */
const probed = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        disposition: z.object({ attached_pic: z.number().optional() }).partial().optional(),
      }),
    )
    .default([]),
});

/** ffprobe's JSON as the codecs of the first video and the first audio stream. */
export function codecsOf(json: string): YtdlCodecs | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const checked = probed.safeParse(value);
  if (!checked.success) return null;
  const first = (type: string) =>
    checked.data.streams.find((s) => s.codec_type === type && s.codec_name && s.disposition?.attached_pic !== 1)?.codec_name ?? null;
  return { video: first('video'), audio: first('audio') };
}

/**
 * What the finished file really holds, read by ffprobe (installed with ffmpeg, which yt-dlp needs
 * anyway): an argument array, a time limit, nothing from a request but the job's own file. Null when
 * ffprobe is missing or cannot read it; the page then says nothing about codecs.
 */
export async function probeCodecs(file: string): Promise<YtdlCodecs | null> {
  try {
    const { stdout } = await run(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name:stream_disposition=attached_pic', '-of', 'json', '--', file],
      { timeout: PROBE_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 },
    );
    return codecsOf(stdout);
  } catch {
    return null;
  }
}
