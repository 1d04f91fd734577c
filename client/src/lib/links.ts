import type { Viewer } from '@site/contracts';
import type { PageRow } from '@site/contracts/area';
import { pages, type PagePath } from '@site/contracts/pages';
import { canOpen } from './access.ts';

/** A page of the site as the hub and navbar list it: its row in the permission table and its href. */
export type SitePage = PageRow & { href: PagePath };

/** Every page, in the table's order (the spec's order of the hub's links). */
export const sitePages: SitePage[] = (Object.keys(pages) as PagePath[]).map((href) => ({ ...pages[href], href }));

/** The links of a hub section / navbar dropdown this viewer may see, in table order. */
export function linksFor(group: 'cool' | 'admin', viewer: Viewer, port?: number): SitePage[] {
  return sitePages.filter((page) => {
    if (page.group !== group) return false;
    if (page.listedFrom !== undefined) return viewer !== null && viewer.level >= page.listedFrom;
    return canOpen(page.href, viewer, port);
  });
}
