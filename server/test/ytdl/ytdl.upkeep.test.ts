import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codecsOf } from '../../src/areas/ytdl/ytdl.codecs.ts';
import { FORMAT_ARGS, parseLine } from '../../src/areas/ytdl/ytdl.runner.ts';
import { YtdlService } from '../../src/areas/ytdl/ytdl.service.ts';
import { testConfig } from '../helpers.ts';
import { tempFolder } from './ytdl.fixture.ts';

const run = promisify(execFile);

let dir: string;
beforeAll(async () => {
  dir = await tempFolder('ytdl-upkeep-');
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A format of a YouTube video as yt-dlp's extractor lists it (video-only, audio-only or both). */
const format = (id: string, ext: string, vcodec: string, acodec: string, height: number | null, tbr: number) => ({
  format_id: id,
  url: `https://rr1.googlevideo.example/videoplayback?itag=${id}`,
  ext,
  vcodec,
  acodec,
  height,
  width: height === null ? null : Math.round((height * 16) / 9),
  protocol: 'https',
  tbr,
});

/**
 * The formats of a 4K YouTube video: H.264 only up to 1080p, AV1 in MP4 and VP9 in WebM above,
 * Opus in WebM and AAC in M4A for sound, and the old 360p H.264+AAC file with both.
 */
const youtube4k = {
  id: 'dQw4w9WgXcQ',
  title: 'Holiday in 4K',
  extractor: 'youtube',
  extractor_key: 'Youtube',
  webpage_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  _type: 'video',
  formats: [
    format('18', 'mp4', 'avc1.42001E', 'mp4a.40.2', 360, 500),
    format('140', 'm4a', 'none', 'mp4a.40.2', null, 129),
    format('251', 'webm', 'none', 'opus', null, 140),
    format('136', 'mp4', 'avc1.4d401f', 'none', 720, 1500),
    format('137', 'mp4', 'avc1.640028', 'none', 1080, 4000),
    format('248', 'webm', 'vp9', 'none', 1080, 3000),
    format('399', 'mp4', 'av01.0.08M.08', 'none', 1080, 2000),
    format('313', 'webm', 'vp9', 'none', 2160, 12000),
    format('401', 'mp4', 'av01.0.12M.08', 'none', 2160, 9000),
  ],
};

/** What the installed yt-dlp picks with the server's arguments for `format`, from `info` (nothing downloaded). */
async function chosen(info: object, args: string[]): Promise<string> {
  const file = path.join(dir, `info-${Math.random().toString(36).slice(2)}.json`);
  await fs.writeFile(file, JSON.stringify(info));
  const { stdout } = await run('yt-dlp', ['--ignore-config', '--no-cache-dir', '--load-info-json', file, ...args, '--simulate', '--print', '%(format_id)s %(vcodec)s %(acodec)s'], {
    env: { ...process.env, HOME: dir },
  });
  return stdout.trim();
}

describe('which format yt-dlp picks', () => {
  it('MP4: H.264 video and AAC audio, the highest resolution of those, not the AV1 or VP9 above them', async () => {
    expect(await chosen(youtube4k, FORMAT_ARGS.mp4)).toBe('137+140 avc1.640028 mp4a.40.2');
    // With an MP4 container alone as the rule, this video came as 2160p AV1: no sound-and-picture on older iPhones and TVs.
    expect(await chosen(youtube4k, ['-f', 'bv*[ext=mp4]+ba[ext=m4a]/b[ext=mp4]/bv*+ba/b'])).toBe('401+140 av01.0.12M.08 mp4a.40.2');
  });

  it('MP4 from a site without H.264 or AAC: the nearest it has (remuxed, and the page says so)', async () => {
    const webmOnly = { ...youtube4k, formats: youtube4k.formats.filter((f) => f.ext === 'webm') };
    expect(await chosen(webmOnly, FORMAT_ARGS.mp4)).toBe('313+251 vp9 opus');
  });

  it('M4A: the AAC audio', async () => {
    expect(await chosen(youtube4k, FORMAT_ARGS.m4a)).toBe('140 none mp4a.40.2');
  });
});

describe("yt-dlp's progress lines", () => {
  it('are read into status, bytes, total, speed and file (lines as yt-dlp 2023.03.04 prints them for a local MP4)', () => {
    const lines = [
      '@@S {"ext": "mp4", "protocol": "http"}',
      '@@P downloading 1024 41785 NA NA /data/tmp/ytdl/job-Ab1/media.mp4.part',
      '@@P downloading 31744 41785 NA 30041513.12635379 /data/tmp/ytdl/job-Ab1/media.mp4.part',
      '@@P downloading 41785 41785 NA 34163546.32358675 /data/tmp/ytdl/job-Ab1/media.mp4.part',
      '@@P finished 41785 41785 NA 16951251.827062577 NA',
      // HLS: no exact size, only yt-dlp's estimate from the fragments so far.
      '@@P downloading 524288 NA 10485760.5 262144.0 /data/tmp/ytdl/job-Ab1/media.mp4.part-Frag3.part',
      '[download] Destination: /data/tmp/ytdl/job-Ab1/media.mp4',
    ];
    expect(lines.map(parseLine)).toEqual([
      { kind: 'chosen', format: { ext: 'mp4', protocol: 'http' } },
      { kind: 'progress', status: 'downloading', downloaded: 1024, total: 41785, speed: null, file: '/data/tmp/ytdl/job-Ab1/media.mp4.part' },
      { kind: 'progress', status: 'downloading', downloaded: 31744, total: 41785, speed: 30041513.12635379, file: '/data/tmp/ytdl/job-Ab1/media.mp4.part' },
      { kind: 'progress', status: 'downloading', downloaded: 41785, total: 41785, speed: 34163546.32358675, file: '/data/tmp/ytdl/job-Ab1/media.mp4.part' },
      { kind: 'progress', status: 'finished', downloaded: 41785, total: 41785, speed: 16951251.827062577, file: null },
      { kind: 'progress', status: 'downloading', downloaded: 524288, total: 10485760.5, speed: 262144, file: '/data/tmp/ytdl/job-Ab1/media.mp4.part-Frag3.part' },
      null,
    ]);
  });
});

describe("ffprobe's answer", () => {
  it('gives the first video and audio codecs, not a cover picture, and nothing for what it cannot read', () => {
    const stream = (codec_type: string, codec_name: string, attached_pic = 0) => ({ codec_type, codec_name, disposition: { attached_pic } });
    expect(codecsOf(JSON.stringify({ programs: [], streams: [stream('video', 'h264'), stream('audio', 'aac')] }))).toEqual({ video: 'h264', audio: 'aac' });
    expect(codecsOf(JSON.stringify({ streams: [stream('video', 'mjpeg', 1), stream('audio', 'aac')] }))).toEqual({ video: null, audio: 'aac' });
    expect(codecsOf(JSON.stringify({ streams: [stream('audio', 'opus'), stream('video', 'vp9'), stream('subtitle', 'mov_text')] }))).toEqual({ video: 'vp9', audio: 'opus' });
    expect(codecsOf(JSON.stringify({}))).toEqual({ video: null, audio: null });
    expect(codecsOf('not json')).toBeNull();
    expect(codecsOf(JSON.stringify({ streams: 'x' }))).toBeNull();
  });
});

describe('the yt-dlp in use', () => {
  /** A stand-in yt-dlp that only tells its version. */
  async function fakeYtdlp(version: string): Promise<string> {
    const file = path.join(dir, `yt-dlp-${version}`);
    await fs.writeFile(file, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
    return file;
  }

  async function versionOn(ytdlpPath: string, today: string) {
    const service = new YtdlService({ ...testConfig().download, ytdlpPath }, path.join(dir, 'tmp'), {}, () => new Date(today));
    try {
      return { version: await service.version(), status: await service.status() };
    } finally {
      await service.stop();
    }
  }

  it('is old more than 90 days after its release, by the clock of the day', async () => {
    const ytdlp = await fakeYtdlp('2023.03.04');
    expect((await versionOn(ytdlp, '2023-05-01T12:00:00Z')).version).toEqual({ version: '2023.03.04', released: '2023-03-04', ageDays: 58, outdated: false });
    const late = await versionOn(ytdlp, '2026-11-24T12:00:00Z');
    expect(late.version).toEqual({ version: '2023.03.04', released: '2023-03-04', ageDays: 1361, outdated: true });
    // The owner is also told which program the server runs.
    expect(late.status).toEqual({ ...late.version, ytdlpPath: ytdlp });
  });

  it('is neither old nor new when it is missing', async () => {
    expect((await versionOn(path.join(dir, 'no-such-yt-dlp'), '2026-11-24T12:00:00Z')).status).toEqual({
      version: null,
      released: null,
      ageDays: null,
      outdated: false,
      ytdlpPath: path.join(dir, 'no-such-yt-dlp'),
    });
  });
});
