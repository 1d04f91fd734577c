import { describeCodecs, type YtdlCodecs, type YtdlFormat } from '@site/contracts/ytdl';

/** 12.3 MB, 850 KB: sizes as people read them (powers of 1024, one decimal under 100). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** '42% · 12.3 MB of 30.0 MB · 2.1 MB/s', leaving out what is not known yet. */
export function describeProgress(p: { percent: number | null; downloadedBytes: number; totalBytes: number | null; speed: number | null }): string {
  const parts: string[] = [];
  if (p.percent !== null) parts.push(`${Math.floor(p.percent)}%`);
  parts.push(p.totalBytes ? `${formatBytes(p.downloadedBytes)} of ${formatBytes(p.totalBytes)}` : formatBytes(p.downloadedBytes));
  if (p.speed) parts.push(`${formatBytes(p.speed)}/s`);
  return parts.join(' · ');
}

/**
 * What the delivered file holds, said plainly: 'H.264 video, AAC audio. Plays on iPhones, ...', or
 * what else it holds and that it may not play everywhere (the server asked for H.264 and AAC first).
 */
export function describeDelivered(codecs: YtdlCodecs, format: YtdlFormat): { text: string; playsEverywhere: boolean } {
  const { text, playsEverywhere } = describeCodecs(codecs);
  if (playsEverywhere) return { text: `${text}. Plays on iPhones, Android, computers and TVs.`, playsEverywhere };
  const why = format === 'mp4' ? 'The site had no H.264 video with AAC audio for it, so this file' : 'This file';
  return { text: `${text}. ${why} may not play on iPhones or older TVs.`, playsEverywhere };
}
