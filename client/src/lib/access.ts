import type { Level, Status, Viewer } from '@site/contracts';
import { allows } from '@site/contracts/area';
import { pages, type PagePath } from '@site/contracts/pages';

export function viewerOf(status: Status | undefined): Viewer {
  if (!status || status.user === null) return null;
  return { name: status.user, level: Math.max(0, Math.min(3, status.level)) as Level };
}

/** The port the page is served on (8443 opens some pages to every member). */
export function currentPort(): number | undefined {
  if (typeof window === 'undefined') return undefined;
  const { port, protocol } = window.location;
  if (port !== '') return Number(port);
  return protocol === 'https:' ? 443 : 80;
}

export function canOpen(page: PagePath, viewer: Viewer, port = currentPort()): boolean {
  return allows(pages[page], viewer, port);
}
