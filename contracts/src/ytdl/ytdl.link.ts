/**
 * The video link rule (spec section 5): a watch link is cut at its first '&' (keeping `?v=ID`, losing
 * playlists and timestamps), any other link at its first '?'. Watch and shorts links, and the other
 * ways YouTube writes one video (youtu.be, /embed/, /live/), become a youtube-nocookie embed for the
 * preview frame; links of other sites have no preview.
 */

/** The only frame source the page (and the site's CSP) allows. */
export const PREVIEW_ORIGIN = 'https://www.youtube-nocookie.com';

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);
const SHORT_HOSTS = new Set(['youtu.be', 'www.youtu.be']);
const VIDEO_ID = /^[A-Za-z0-9_-]{1,64}$/;

function parse(link: string): URL | null {
  try {
    return new URL(link);
  } catch {
    return null;
  }
}

function isWatchLink(url: URL | null): boolean {
  return url !== null && YOUTUBE_HOSTS.has(url.hostname.toLowerCase()) && url.pathname === '/watch';
}

/** The link as it is downloaded and previewed: cut at the first '&' (watch links) or the first '?'. */
export function cutVideoLink(link: string): string {
  const trimmed = link.trim();
  const cutAt = isWatchLink(parse(trimmed)) ? '&' : '?';
  const at = trimmed.indexOf(cutAt);
  return at === -1 ? trimmed : trimmed.slice(0, at);
}

/** The id of the one YouTube video a link names, or null (other sites, playlists, channels). */
export function youtubeVideoId(link: string): string | null {
  const url = parse(link.trim());
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | null | undefined = null;
  if (SHORT_HOSTS.has(host)) id = parts[0];
  else if (YOUTUBE_HOSTS.has(host)) {
    if (url.pathname === '/watch') id = url.searchParams.get('v');
    else if (parts.length === 2 && ['shorts', 'embed', 'live', 'v'].includes(parts[0] ?? '')) id = parts[1];
  }
  return id && VIDEO_ID.test(id) ? id : null;
}

/** The preview frame's address for a link, or null when the link is not one YouTube video. */
export function embedLink(link: string): string | null {
  const id = youtubeVideoId(cutVideoLink(link));
  return id ? `${PREVIEW_ORIGIN}/embed/${id}` : null;
}
