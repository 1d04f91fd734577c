import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, signUpOwner, useSite, waitForShell } from './harness.ts';

const require = createRequire(import.meta.url);
/** Real photographs with their GPS position: an iPhone 6 Plus's in Beijing, a Nokia Lumia 820's on Sylt (List, Germany). */
const PHOTOS = [
  { name: 'iphone.jpg', caption: 'Great Wall trip', file: require.resolve('jpeg-exif/test/IMG_0001.JPG') },
  { name: 'lumia.jpg', caption: 'Starfish on the beach', file: require.resolve('exif-parser/test/starfish.jpg') },
];

/** Every request the page makes to a host other than the site's is refused and remembered. */
async function onlyThisSite(page: Page, baseUrl: string): Promise<string[]> {
  const site = new URL(baseUrl).host;
  const elsewhere: string[] = [];
  await page.context().route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === site || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
    elsewhere.push(url.href);
    return route.abort('blockedbyclient');
  });
  return elsewhere;
}

async function uploadPhotos(page: Page) {
  for (const photo of PHOTOS) {
    const res = await page.request.post('/api/pictures/upload', {
      multipart: { file: { name: photo.name, mimeType: 'image/jpeg', buffer: fs.readFileSync(photo.file) }, caption: photo.caption, date: '2015-08-xx' },
    });
    expect(res.status()).toBe(200);
  }
  // The worker reads each photo's place after its thumbnail.
  await expect
    .poll(async () => (await (await page.request.get('/trpc/pictures.map')).json()).result?.data?.ids?.length ?? 0, { timeout: 30_000 })
    .toBe(2);
}

/** The first test makes the site's owner and uploads the photos; the others log in as the owner. */
let ready = false;
async function asOwner(page: Page) {
  if (ready) {
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL((url) => url.pathname !== '/login');
    return;
  }
  await signUpOwner(page);
  await uploadPhotos(page);
  ready = true;
}

describeInBrowser('pictures: the map of where pictures were taken, offline, and search with suggestions', () => {
  const site = useSite();

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows the located photos on a world map drawn by the site alone, zooms, and opens a marker's pictures (${label})`, async () => {
      const page = await site.newPage({ viewport });
      const elsewhere = await onlyThisSite(page, site.server.baseUrl);
      await asOwner(page);
      await page.goto('/personal/pictures/map');
      await waitForShell(page);
      await page.getByTestId('map-count').getByText('2 pictures say where they were taken.').waitFor();
      const map = page.getByTestId('map');
      // The world: Natural Earth's countries at 1:110m (177), from this site.
      const countries = map.locator('path.map-land');
      await expect.poll(() => countries.count()).toBe(177);
      const markers = map.locator('[data-marker]');
      await expect.poll(() => markers.count()).toBe(2);
      await site.screenshot(page, `pictures-map-${label}`);
      await expect(seriousAxeViolations(page)).resolves.toEqual([]);

      // Keyboard: + zooms in, an arrow moves the world.
      const land = map.locator('svg > g').first();
      const before = await land.getAttribute('transform');
      await map.focus();
      await page.keyboard.press('+');
      await expect.poll(() => land.getAttribute('transform')).not.toBe(before);
      const zoomed = await land.getAttribute('transform');
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => land.getAttribute('transform')).not.toBe(zoomed);
      // Zoomed in 16 times, the 1:50m borders (241 countries) replace the first view's.
      for (const _ of [1, 2, 3]) await page.keyboard.press('+');
      await expect.poll(() => countries.count()).toBe(241);
      await page.getByRole('button', { name: 'Whole world' }).click();
      await expect.poll(() => land.getAttribute('transform')).toBe(before);
      // The mouse wheel zooms too.
      const box = await map.boundingBox();
      await page.mouse.move((box?.x ?? 0) + 100, (box?.y ?? 0) + 100);
      await page.mouse.wheel(0, -600);
      await expect.poll(() => land.getAttribute('transform')).not.toBe(before);
      await page.getByRole('button', { name: 'Whole world' }).click();

      // A marker opens its picture in the viewer.
      const beijing = markers.nth(0);
      await beijing.click();
      const viewer = page.getByTestId('picture-viewer');
      await viewer.waitFor();
      const caption = await viewer.locator('.viewer-caption').textContent();
      expect(PHOTOS.map((p) => p.caption)).toContain(caption);
      await site.screenshot(page, `pictures-map-viewer-${label}`);
      await page.keyboard.press('Escape');
      expect(elsewhere).toEqual([]);
      expect(site.pageErrors(page)).toEqual([]);
    });
  }

  it('suggests a town while typing, searches it, and opens the result in the viewer (desktop and phone)', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    const elsewhere = await onlyThisSite(page, site.server.baseUrl);
    await asOwner(page);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto('/personal/pictures');
      await waitForShell(page);
      const box = page.getByRole('combobox', { name: 'Search pictures' });
      await box.fill('bei');
      const options = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
      await expect.poll(() => options.allTextContents()).toEqual(['BeijingPlace']);
      await site.screenshot(page, `pictures-search-suggestions-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      await options.first().click();
      await page.waitForURL('**/personal/pictures/month/0?q=Beijing');
      await page.getByTestId('search-count').getByText('1 found for “Beijing”').waitFor();
      await page.getByTestId('search-grid').getByRole('button', { name: 'Open Great Wall trip' }).click();
      await expect(page.getByTestId('picture-viewer').locator('.viewer-caption').textContent()).resolves.toBe('Great Wall trip');
      await page.keyboard.press('Escape');
      // Enter searches what was typed; the keyboard picks a suggestion too.
      await box.fill('starfish 2015');
      await box.press('Enter');
      await page.getByTestId('search-count').getByText('1 found for “starfish 2015”').waitFor();
      await box.fill('germ');
      await expect.poll(() => options.allTextContents()).toEqual(['GermanyPlace']);
      await box.press('ArrowDown');
      await box.press('Enter');
      await page.getByTestId('search-count').getByText('1 found for “Germany”').waitFor();
      await site.screenshot(page, `pictures-search-results-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      await box.fill('nowhere');
      await box.press('Enter');
      await page.getByTestId('search-count').getByText('Nothing found for “nowhere”.').waitFor();
    }
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});
