import { z } from 'zod';
import { text } from '../text.ts';
import { ytdlCodecs } from './ytdl.codecs.ts';

export const YTDL_FORMATS = ['mp4', 'm4a'] as const;
export const ytdlFormat = z.enum(YTDL_FORMATS, { error: 'Format must be mp4 (video) or m4a (audio)' });
export type YtdlFormat = z.infer<typeof ytdlFormat>;

export const FORMAT_LABELS: Record<YtdlFormat, string> = { mp4: 'MP4 video', m4a: 'M4A audio' };

export const videoUrl = text({ label: 'URL', max: 2048, trim: true, min: 1, emptyMessage: 'Paste a video link first' });

export const ytdlInfoInput = z.object({ url: videoUrl });
export const ytdlInfoOutput = z.object({ title: z.string() });
export type YtdlInfo = z.infer<typeof ytdlInfoOutput>;

export const ytdlStartInput = z.object({ url: videoUrl, format: ytdlFormat.default('mp4') });
export type YtdlStartInput = z.infer<typeof ytdlStartInput>;

export const ytdlJobInput = z.object({ job: z.uuid({ error: 'That download does not exist' }) });

/**
 * A download's life: `starting` (checking the link), `downloading` (the server fetches; bytes and
 * speed move; the file may already be fetched when `streaming`), `processing` (merging or extracting
 * audio), `ready` (the browser may fetch the file once), then `sent`; or `failed` (with `error`) or
 * `cancelled`.
 */
export const YTDL_STATES = ['starting', 'downloading', 'processing', 'ready', 'sent', 'failed', 'cancelled'] as const;
export type YtdlState = (typeof YTDL_STATES)[number];

export const ytdlProgress = z.object({
  job: z.string(),
  state: z.enum(YTDL_STATES),
  title: z.string().nullable(),
  format: ytdlFormat,
  /** 0-100 when the size is known, else null. */
  percent: z.number().nullable(),
  downloadedBytes: z.number(),
  totalBytes: z.number().nullable(),
  /** Bytes per second, when yt-dlp knows it. */
  speed: z.number().nullable(),
  /**
   * The file can be fetched now, while the server still downloads it (the answer follows the file as
   * it is written). Only for a file yt-dlp delivers as it writes it; others wait for `ready`.
   */
  streaming: z.boolean(),
  fileName: z.string().nullable(),
  /** What the delivered file holds (probed once yt-dlp is done); null before that or when unknown. */
  codecs: ytdlCodecs.nullable(),
  error: z.string().nullable(),
});
export type YtdlProgress = z.infer<typeof ytdlProgress>;

/**
 * The yt-dlp in use: its version (null when it is not installed), the release date in it, its age in
 * days and whether that is more than `YTDLP_FRESH_DAYS` (see `ytdlpAge`).
 */
export const ytdlVersion = z.object({
  version: z.string().nullable(),
  released: z.string().nullable(),
  ageDays: z.number().nullable(),
  outdated: z.boolean(),
});
export type YtdlVersion = z.infer<typeof ytdlVersion>;

/** The owner's view (Admin page): also the program the server runs (YTDLP_PATH). */
export const ytdlStatus = ytdlVersion.extend({ ytdlpPath: z.string() });
export type YtdlStatus = z.infer<typeof ytdlStatus>;

/** The messages a member sees; the server's and the page's. */
export const ytdlMessages = {
  notHttp: 'Only http:// and https:// links can be downloaded',
  notUrl: 'That is not a link: paste the address of a video page, starting with https://',
  privateHost: 'That link points into a private or local network, which this server does not download from',
  unknownHost: 'That address could not be found: check the link',
  noInternet: 'This site cannot reach the internet right now, so it cannot fetch videos; try again later',
  busyMember: 'You already have a download running: wait for it to finish or cancel it',
  busyServer: (n: number) => `The server is busy with ${n} download${n === 1 ? '' : 's'} already; try again in a minute`,
  missing: 'The downloader (yt-dlp) is not installed on the server; ask the site owner to install it',
  unsupported: 'That link is not a video the downloader knows how to fetch',
  unavailable: 'That video is private, removed or otherwise not available',
  unreachable: 'The video could not be reached: check the link or try again later',
  tooLarge: (mb: number) => `That video is larger than the ${mb} MB this server downloads`,
  tooLong: (minutes: number) => `The download took longer than ${minutes} minutes and was stopped`,
  noJob: 'That download does not exist or has finished',
  notReady: 'That download is not ready yet',
  failed: (detail: string) => `The downloader failed: ${detail}`,
  replaced: 'A newer link replaced this one',
  outdated: (version: string, days: number) =>
    `The downloader here (yt-dlp ${version}) is ${days} days old: video sites change often, so downloads from them may fail. Ask the site owner to update it.`,
} as const;
