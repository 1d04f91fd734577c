import type { YtdlFormat } from './ytdl.schemas.ts';

// eslint-disable-next-line no-control-regex -- control characters are exactly what file systems refuse
const REFUSED = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*]+/g;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
/** Room for the extension within the 255 bytes most file systems allow, counted in UTF-16 units. */
const MAX_STEM = 120;

/**
 * '{title}.{format}' with what Windows, macOS or Linux refuse in a file name replaced: control
 * characters and <>:"/\|?* become '_', trailing dots and spaces go, reserved device names get a '_'
 * prefix, and long titles are shortened. An empty result falls back to 'video'.
 */
export function downloadFileName(title: string, format: YtdlFormat): string {
  let stem = title.normalize('NFC').replace(REFUSED, '_').replace(/\s+/g, ' ').trim();
  if (stem.length > MAX_STEM) stem = Array.from(stem).slice(0, MAX_STEM).join('').trim();
  stem = stem.replace(/[. ]+$/, '');
  if (stem === '' || /^_+$/.test(stem)) stem = 'video';
  if (WINDOWS_RESERVED.test(stem)) stem = `_${stem}`;
  return `${stem}.${format}`;
}
