import { z } from 'zod';

/**
 * The codecs of a delivered file, as ffprobe names them (`h264`, `aac`, `vp9`, `opus`, ...): what the
 * file has, not what the video site claimed. Null where the file has no such stream.
 */
export const ytdlCodecs = z.object({ video: z.string().nullable(), audio: z.string().nullable() });
export type YtdlCodecs = z.infer<typeof ytdlCodecs>;

const NAMES: Record<string, string> = {
  h264: 'H.264',
  hevc: 'H.265 (HEVC)',
  av1: 'AV1',
  vp9: 'VP9',
  vp8: 'VP8',
  mpeg4: 'MPEG-4 Part 2',
  mpeg2video: 'MPEG-2',
  theora: 'Theora',
  aac: 'AAC',
  opus: 'Opus',
  vorbis: 'Vorbis',
  mp3: 'MP3',
  flac: 'FLAC',
  alac: 'ALAC',
  ac3: 'Dolby Digital (AC-3)',
  eac3: 'Dolby Digital Plus (E-AC-3)',
};

const nameOf = (codec: string) => NAMES[codec] ?? codec.toUpperCase();

/**
 * 'H.264 video, AAC audio' and whether it plays on iPhones, Android, computers and older TVs alike:
 * H.264 video (if any) with AAC audio (if any), the pair every player since the iPhone 3GS reads.
 */
export function describeCodecs(codecs: YtdlCodecs): { text: string; playsEverywhere: boolean } {
  const parts: string[] = [];
  if (codecs.video) parts.push(`${nameOf(codecs.video)} video`);
  parts.push(codecs.audio ? `${nameOf(codecs.audio)} audio` : 'no audio');
  const playsEverywhere = (codecs.video === null || codecs.video === 'h264') && (codecs.audio === null || codecs.audio === 'aac') && (codecs.video ?? codecs.audio) !== null;
  return { text: parts.join(', '), playsEverywhere };
}

/** A yt-dlp older than this (its version is its release date) no longer keeps up with video sites. */
export const YTDLP_FRESH_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The release date in a yt-dlp version ('2023.03.04', nightly '2025.01.15.232718') and its age on
 * `today`; a version that is not a date (a source build) is never called old.
 */
export function ytdlpAge(version: string, today: Date): { released: string; ageDays: number; outdated: boolean } | null {
  const m = /^(\d{4})\.(\d{2})\.(\d{2})(?:\D|$)/.exec(version);
  if (!m) return null;
  const released = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const date = new Date(released);
  if (date.getUTCMonth() !== Number(m[2]) - 1 || date.getUTCDate() !== Number(m[3])) return null;
  const ageDays = Math.max(0, Math.floor((today.getTime() - released) / DAY_MS));
  return { released: date.toISOString().slice(0, 10), ageDays, outdated: ageDays > YTDLP_FRESH_DAYS };
}
