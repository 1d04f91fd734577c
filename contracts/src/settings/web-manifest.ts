import type { Colors } from './settings.schemas.ts';

/** Where the browser reads the web app manifest (linked from index.html and the About page). */
export const WEB_MANIFEST_PATH = '/manifest.webmanifest';
/** The file the client build writes beside index.html: the manifest without the owner's colours. */
export const WEB_MANIFEST_BASE_FILE = 'app-manifest.json';

export type WebManifestIcon = { src: string; sizes: string; type: string; purpose?: 'any' | 'maskable' };

/**
 * The installed app as a Web Share Target (Android: Share -> the site): photos and videos are POSTed
 * as multipart to `action`, where the service worker keeps them and opens the upload page with them.
 * iOS has no share target for web apps (docs/pictures.md says what to do there).
 */
export const SHARE_TARGET = {
  action: '/share-target',
  method: 'POST',
  enctype: 'multipart/form-data',
  params: { title: 'title', text: 'text', files: [{ name: 'files', accept: ['image/*', 'video/*'] }] },
} as const;

export type WebManifest = {
  id: string;
  name: string;
  short_name: string;
  description?: string;
  start_url: string;
  scope: string;
  display: 'standalone';
  background_color: string;
  theme_color: string;
  share_target?: typeof SHARE_TARGET;
  icons: WebManifestIcon[];
};

/**
 * The installed app's colours are the owner's (the first account's saved colours, else the defaults):
 * the title bar in the menu colour, the splash screen in the background colour.
 */
export function withOwnerColors(base: WebManifest, colors: Colors): WebManifest {
  return { ...base, theme_color: colors.menuColor, background_color: colors.backgroundColor };
}
