import sharp from 'sharp';
import { it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, signUpOwner, useSite, waitForShell } from './harness.ts';

/** A JPEG whose EXIF says it was taken in Arezzo (43°28'N 11°53'E), as a phone's camera writes it. */
function arezzoPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 600, channels: 3, background: '#b86b3c' } })
    .withExif({ IFD0: { Make: 'Test camera' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '43/1 28/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '11/1 53/1 0/1' } })
    .jpeg()
    .toBuffer();
}

describeInBrowser('pictures: one viewer everywhere, with the place beside the date and a tag added with Enter', () => {
  const site = useSite();

  it('the gallery\'s and the map\'s viewer say "Arezzo, Italy" beside the date, have In this picture and tags; Enter adds a tag (390 px)', async () => {
    const owner = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(owner);
    const res = await owner.request.post('/api/pictures/upload', {
      multipart: { file: { name: 'arezzo.jpg', mimeType: 'image/jpeg', buffer: await arezzoPhoto() }, caption: 'Piazza Grande', date: '2019-06-02' },
    });
    expect(res.status()).toBe(200);
    // The worker reads the photo's place after its thumbnail.
    await expect
      .poll(async () => (await (await owner.request.get('/trpc/pictures.map')).json()).result?.data?.ids?.length ?? 0, { timeout: 30_000 })
      .toBe(1);

    const phone = await site.newPage({ viewport: PHONE });
    await logIn(phone, 'owner', 'owner-password');
    await phone.waitForURL((url) => url.pathname !== '/login');
    await phone.goto('/personal/pictures');
    await waitForShell(phone);
    await phone.getByRole('button', { name: 'Open Piazza Grande' }).click();
    const viewer = phone.getByTestId('picture-viewer');
    await viewer.waitFor();
    const date = viewer.locator('.viewer-date');
    await expect.poll(() => date.locator('.viewer-place').textContent()).toBe(' · Arezzo, Italy');
    await expect(date.textContent()).resolves.toMatch(/2019.* · Arezzo, Italy$/);

    // The one-field "Add a tag" form: Enter alone adds the tag (no ctrl needed, no hint).
    const section = viewer.getByTestId('in-picture');
    await section.scrollIntoViewIfNeeded();
    const field = section.getByLabel('Add a tag');
    await field.fill('Duomo');
    await field.press('Enter');
    await section.getByRole('button', { name: 'Remove the tag duomo' }).waitFor();
    await expect(field.inputValue()).resolves.toBe('');
    await expect(section.getByText('Hold ctrl to submit with enter').count()).resolves.toBe(0);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await site.screenshot(phone, 'viewer-place-tag-phone', { fullPage: true });
    await viewer.getByRole('button', { name: 'Close viewer' }).click();

    // The map's viewer is the same one: place, In this picture, and the tag just added.
    await phone.goto('/personal/pictures/map');
    await waitForShell(phone);
    const markers = phone.getByTestId('map').locator('[data-marker]');
    await expect.poll(() => markers.count()).toBe(1);
    await markers.first().click();
    await viewer.waitFor();
    await expect.poll(() => viewer.locator('.viewer-caption').textContent()).toBe('Piazza Grande');
    await expect.poll(() => viewer.locator('.viewer-date .viewer-place').textContent()).toBe(' · Arezzo, Italy');
    const mapSection = viewer.getByRole('region', { name: 'In this picture' });
    await mapSection.waitFor();
    await expect.poll(() => mapSection.getByRole('list', { name: 'Tags' }).locator('li > span').allTextContents()).toContain('duomo');
    await expect(mapSection.getByLabel('Add a tag').count()).resolves.toBe(1);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await site.screenshot(phone, 'viewer-place-map-phone', { fullPage: true });
    expect(site.pageErrors(phone)).toEqual([]);
  });
});
