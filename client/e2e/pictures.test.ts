import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { it } from 'vitest';
// The server tests' HEIC maker (heif-enc): the same kind of file an iPhone saves.
import { heic } from '../../server/test/pictures/date-fixtures.ts';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, signUp, signUpOwner, useSite, waitForShell } from './harness.ts';

/** A JPEG whose EXIF says 15 July 2021, and a PNG with no date of its own. */
async function files() {
  const jpeg = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#2a6fb0' } })
    .jpeg()
    .withExifMerge({ IFD2: { DateTimeOriginal: '2021:07:15 09:30:00' } })
    .toBuffer();
  const png = await sharp({ create: { width: 500, height: 500, channels: 4, background: '#d0702a' } }).png().toBuffer();
  return {
    jpeg: { name: 'beach.jpg', mimeType: 'image/jpeg', buffer: jpeg },
    png: { name: 'sunset.png', mimeType: 'image/png', buffer: png },
  };
}

async function setDate(page: Page, item: number, date: { year: string; month: string; day: string }) {
  const row = page.getByTestId('upload-list').locator('li').nth(item);
  // The page suggests a date (EXIF, else the file's date) a moment after the file is chosen; wait for
  // it, so that the test types over a suggestion (the page keeps a typed date either way).
  await expect.poll(() => row.getByLabel('Year').inputValue()).not.toBe('');
  await row.getByLabel('Year').fill(date.year);
  await row.getByLabel('Month').fill(date.month);
  await row.getByLabel('Day').fill(date.day);
}

describeInBrowser('pictures: upload, gallery, viewer and approval', () => {
  const site = useSite();

  it('uploads two files with progress, shows them in the month page, opens the viewer and pages by bar and keyboard', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(page);
    await page.goto('/personal/upload-pictures');
    await waitForShell(page);
    const { jpeg, png } = await files();
    await page.getByLabel('Choose pictures or videos, or drop them here').setInputFiles([jpeg, png]);

    // Autofill: captions from the names, the JPEG's date from its EXIF, the PNG's from the file.
    const rows = page.getByTestId('upload-list').locator('li');
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => rows.nth(0).getByLabel('Caption').inputValue()).toBe('beach');
    await expect.poll(() => rows.nth(0).getByLabel('Year').inputValue()).toBe('2021');
    await expect(rows.nth(0).getByLabel('Day').inputValue()).resolves.toBe('15');
    await rows.nth(0).getByText('Date read from the photo.').waitFor();
    await rows.nth(1).getByText("Date from the file's modified date.").waitFor();
    await setDate(page, 1, { year: '2021', month: '7', day: '5a' });
    await rows.nth(1).getByText('Day must be a whole number from 1 to 31').waitFor();
    await site.screenshot(page, 'pictures-upload-date-error-desktop', { fullPage: true });
    await rows.nth(1).getByLabel('Day').fill('');
    await expect(page.locator('progress').count()).resolves.toBe(2);
    await site.screenshot(page, 'pictures-upload-desktop', { fullPage: true });

    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').getByText('beach.jpg: Uploaded').waitFor();
    await expect.poll(() => rows.count()).toBe(0);
    await expect(page.getByRole('button', { name: 'Upload' }).textContent()).resolves.toBe('Upload');

    await page.goto('/personal/pictures');
    await page.waitForURL('**/personal/pictures/month/0');
    await waitForShell(page);
    await expect.poll(() => page.getByTestId('gallery-label').textContent()).toBe('July 2021');
    const tiles = page.getByTestId('picture-grid').locator('button');
    await expect.poll(() => tiles.count()).toBe(2);
    // Thumbnails arrive from the background queue; the grid looks again until they are there.
    await expect.poll(() => page.locator('.picture-grid img').count(), { timeout: 30_000 }).toBe(2);
    await site.screenshot(page, 'pictures-gallery-desktop');
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);

    await tiles.nth(0).click();
    const viewer = page.getByTestId('picture-viewer');
    await viewer.getByText('Taken on: July 15, 2021').waitFor();
    await expect(viewer.locator('.viewer-caption').textContent()).resolves.toBe('beach');
    await site.screenshot(page, 'pictures-viewer-desktop');
    // The close button is on top (the viewer is above the navbar), where a click lands.
    const close = viewer.getByRole('button', { name: 'Close viewer' });
    await expect(
      close.evaluate((button) => {
        const box = button.getBoundingClientRect();
        return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2) === button;
      }),
    ).resolves.toBe(true);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewer.locator('.viewer-caption').textContent()).toBe('sunset');
    await viewer.getByText('Taken on: July 2021').waitFor();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => viewer.locator('.viewer-caption').textContent()).toBe('beach');
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.count()).toBe(0);

    // One picture a page: the bar's arrows, greyed at the ends, and the keyboard.
    await page.goto('/personal/pictures/1/0');
    await waitForShell(page);
    const counter = page.getByTestId('page-counter');
    await expect.poll(() => counter.textContent()).toBe('1 / 2');
    await expect(page.getByTestId('gallery-label').textContent()).resolves.toBe('Pictures 1 - 1');
    await expect(page.getByLabel('Previous page').getAttribute('aria-disabled')).resolves.toBe('true');
    await page.getByRole('link', { name: 'Next page' }).click();
    await expect.poll(() => counter.textContent()).toBe('2 / 2');
    await expect.poll(() => page.getByTestId('gallery-label').textContent()).toBe('Pictures 2 - 2');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => counter.textContent()).toBe('1 / 2');
    await page.waitForURL('**/personal/pictures/1/0');

    // A path that is not five segments goes to the default page.
    await page.goto('/personal/pictures/month');
    await page.waitForURL('**/personal/pictures/month/0');

    const phone = await site.newPage({ viewport: PHONE });
    await logIn(phone, 'owner', 'owner-password');
    await phone.waitForURL('**/personal');
    await phone.goto('/personal/pictures/month/0');
    await waitForShell(phone);
    await expect.poll(() => phone.locator('.picture-grid img').count()).toBe(2);
    await site.screenshot(phone, 'pictures-gallery-phone', { fullPage: true });
    await phone.getByTestId('picture-grid').locator('button').first().click();
    await phone.getByTestId('picture-viewer').getByText('Taken on: July 15, 2021').waitFor();
    await site.screenshot(phone, 'pictures-viewer-phone');
    expect(site.pageErrors(page)).toEqual([]);
  });

  it("waits for an admin's approval when a Friend uploads", async () => {
    const friendPage = await site.newPage({ viewport: PHONE });
    await signUp(friendPage, 'friend', 'friend-password');
    await friendPage.waitForURL('**/preauth');
    const owner = await site.newPage({ viewport: DESKTOP });
    await logIn(owner, 'owner', 'owner-password');
    await owner.waitForURL('**/personal');
    const raised = await owner.request.post('/api/admin/set_user_auth', { data: { username: 'friend', authlevel: 1 } });
    expect(raised.status()).toBe(200);
    // The owner's hub stays open: its count follows the queue live (GET /events), with no reload.
    await waitForShell(owner);
    await expect.poll(() => owner.getByTestId('hub-pending-pictures').textContent()).toBe('Approve Pictures: 0 waiting');

    // A level change takes effect on the friend's next request: no new login needed.
    await friendPage.goto('/personal/pictures/month/0');
    await waitForShell(friendPage);
    await friendPage.getByRole('link', { name: 'Upload (needs approval)' }).click();
    await friendPage.getByTestId('approval-note').waitFor();
    // Bytes of its own: the owner's sunset is already in the gallery.
    const cat = await sharp({ create: { width: 300, height: 300, channels: 4, background: '#7a4a2a' } }).png().toBuffer();
    await friendPage.getByLabel('Choose pictures or videos, or drop them here').setInputFiles([{ name: 'friend-cat.png', mimeType: 'image/png', buffer: cat }]);
    // A decimal comma in Month is kept as typed and refused with the reason, not read as 25.
    await setDate(friendPage, 0, { year: '2020', month: '2,5', day: '' });
    await friendPage.getByText('Month must be a whole number from 1 to 12, with no decimals').waitFor();
    await site.screenshot(friendPage, 'pictures-upload-date-error-phone', { fullPage: true });
    await friendPage.getByLabel('Month').fill('');
    await friendPage.getByRole('button', { name: 'Upload' }).click();
    await friendPage.getByRole('status').getByText(/friend-cat\.png: Uploaded\. An admin approves/).waitFor();
    await site.screenshot(friendPage, 'pictures-upload-friend-phone', { fullPage: true });

    await friendPage.goto('/personal/pictures/year/1');
    await waitForShell(friendPage);
    await expect.poll(() => friendPage.getByTestId('gallery-label').textContent()).toBe('2020');
    await friendPage.getByRole('button', { name: 'Open friend-cat (waiting for approval)' }).waitFor();

    await expect.poll(() => owner.getByTestId('hub-pending-pictures').textContent(), { timeout: 1_000 }).toBe('Approve Pictures: 1 waiting');
    // The hub may be showing the owner's welcome popup over the link: open the queue by its address.
    expect(await owner.getByTestId('hub-pending-pictures').getByRole('link').getAttribute('href')).toBe('/admin/pictures');
    await owner.goto('/admin/pictures');
    await waitForShell(owner);
    const item = owner.getByTestId('approval-list').locator('li');
    await expect.poll(() => item.count()).toBe(1);
    await expect.poll(() => item.locator('img').count(), { timeout: 30_000 }).toBe(1);
    await site.screenshot(owner, 'pictures-approval-desktop');
    await item.getByRole('button', { name: 'Approve' }).click();
    await owner.getByText('Nothing is waiting for approval.').waitFor();

    await friendPage.reload();
    await waitForShell(friendPage);
    await friendPage.getByRole('button', { name: 'Open friend-cat', exact: true }).waitFor();
  });

  it('takes an iPhone HEIC, shows it in the gallery, and answers the same photo again with a link to it', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    const photo = { name: 'IMG_4021.HEIC', mimeType: 'image/heic', buffer: await heic({ date: '2024:08:09 18:30:00', width: 800, height: 600 }) };
    await page.goto('/personal/upload-pictures');
    await waitForShell(page);
    const chooser = page.getByLabel('Choose pictures or videos, or drop them here');
    await chooser.setInputFiles([photo]);
    // The page reads the date from the HEIC's own EXIF, as the server would.
    const row = page.getByTestId('upload-list').locator('li').first();
    await expect.poll(() => row.getByLabel('Year').inputValue()).toBe('2024');
    await expect(row.getByLabel('Day').inputValue()).resolves.toBe('09');
    await row.getByText('Date read from the photo.').waitFor();
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').getByText('IMG_4021.HEIC: Uploaded').waitFor();

    await page.goto('/personal/pictures/month/0');
    await waitForShell(page);
    await expect.poll(() => page.getByTestId('gallery-label').textContent()).toBe('August 2024');
    // Browsers cannot show HEIC: the tile and the viewer show the WebPs made on upload.
    const tile = page.getByRole('button', { name: 'Open IMG_4021' });
    await expect.poll(() => tile.locator('img').getAttribute('src'), { timeout: 30_000 }).toMatch(/\.thumb\.webp$/);
    await tile.click();
    const viewer = page.getByTestId('picture-viewer');
    await expect.poll(() => viewer.locator('img').getAttribute('src')).toMatch(/\.display\.webp$/);
    await expect.poll(() => viewer.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);
    await viewer.getByRole('link', { name: 'Download the original HEIC file' }).waitFor();
    await site.screenshot(page, 'pictures-heic-viewer-desktop');

    await page.goto('/personal/upload-pictures');
    await waitForShell(page);
    await chooser.setInputFiles([{ ...photo, name: 'IMG_4021 copy.HEIC' }]);
    await expect.poll(() => page.getByTestId('upload-list').locator('li').count()).toBe(1);
    await page.getByRole('button', { name: 'Upload' }).click();
    const note = page.getByRole('status').getByText('IMG_4021 copy.HEIC: Already in the gallery');
    await note.waitFor();
    await site.screenshot(page, 'pictures-duplicate-desktop');
    await page.getByRole('status').getByRole('link', { name: 'See it' }).click();
    await page.waitForURL('**/personal/pictures/month/0');
    await expect.poll(() => page.getByTestId('picture-viewer').locator('.viewer-caption').textContent()).toBe('IMG_4021');
    expect(site.pageErrors(page)).toEqual([]);
  });
});
