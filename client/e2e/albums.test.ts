import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { it } from 'vitest';
import { DESKTOP, PHONE, axeViolations, describeInBrowser, expect, logIn, seriousAxeViolations, signUpOwner, useSite, waitForShell } from './harness.ts';
import { uploadPicture } from './members.ts';

/** A guest page has no navbar: it is ready when its heading is there. */
async function guestHeading(page: Page, name: string) {
  await page.getByRole('heading', { name }).waitFor();
}

describeInBrowser('albums: an album, its view link for a guest, revoking, and a guest upload approved', () => {
  const site = useSite();

  it('makes an album, adds a picture from the viewer, shares it; a guest sees exactly the album; revoked shows nothing; a guest upload is approved under its name', async () => {
    const owner = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(owner);
    await uploadPicture(owner, 'Beach day', '2021-07-15', '#2a6fb0', { width: 900, height: 600 });
    await uploadPicture(owner, 'Not shared', '2021-07-15', '#b02a6f', { width: 600, height: 600 });

    // New album, then "Add to album" from the gallery's viewer.
    await owner.goto('/personal/pictures/albums');
    await waitForShell(owner);
    await owner.getByLabel('Album name').fill('Summer');
    await owner.getByRole('button', { name: 'New album' }).click();
    await owner.waitForURL(/\/personal\/pictures\/albums\/\d+$/);
    const albumUrl = new URL(owner.url()).pathname;
    await owner.goto('/personal/pictures/month/0');
    await waitForShell(owner);
    await owner.getByRole('button', { name: 'Open Beach day' }).click();
    const viewer = owner.getByTestId('picture-viewer');
    // The viewer says which albums hold the picture: none, then Summer.
    await expect.poll(() => viewer.getByTestId('in-albums').textContent()).toBe('In no album yet.');
    await viewer.getByRole('button', { name: 'Add to album' }).click();
    await viewer.getByRole('status').getByText('Added to Summer').waitFor();
    await expect.poll(() => viewer.getByTestId('in-albums').textContent()).toBe('In Summer.');
    await expect(viewer.getByRole('option', { name: 'Summer (has it)' }).count()).resolves.toBe(1);
    // A comment the guest will read (guests see hearts and comments, and cannot add them).
    await viewer.getByLabel('Add a comment').fill('Our first swim of the year');
    await viewer.getByRole('button', { name: 'Comment', exact: true }).click();
    await viewer.getByTestId('social-comment').getByText('Our first swim of the year').waitFor();
    await site.screenshot(owner, 'albums-add-to-album-desktop');

    await owner.goto(albumUrl);
    await waitForShell(owner);
    await expect.poll(() => owner.getByTestId('album-name').textContent()).toBe('Summer');
    await expect.poll(() => owner.locator('.picture-grid img').count(), { timeout: 30_000 }).toBe(1);
    await site.screenshot(owner, 'albums-album-desktop');
    await owner.getByRole('button', { name: 'Share' }).click();
    await owner.getByLabel('Password (optional)').waitFor();
    // Every field of the dialog in the form's type size.
    const fontSize = (label: string) => owner.getByLabel(label).evaluate((input) => getComputedStyle(input).fontSize);
    await expect(fontSize('Expires after (days)')).resolves.toBe(await fontSize('Password (optional)'));
    await owner.getByRole('button', { name: 'Create view link' }).click();
    const viewLink = await expect.poll(() => owner.getByLabel('View link').inputValue()).toMatch(/\/shared\/[A-Za-z0-9_-]{22}$/).then(() => owner.getByLabel('View link').inputValue());
    await owner.getByTestId('share-list').getByRole('button', { name: 'Revoke' }).waitFor();
    await site.screenshot(owner, 'albums-share-dialog-desktop');
    await expect(seriousAxeViolations(owner)).resolves.toEqual([]);

    // A guest with no account, on a phone and on a desktop: the album alone, no navbar, no other picture.
    const sharedPath = new URL(viewLink).pathname;
    for (const viewport of [PHONE, DESKTOP]) {
      const guest = await site.newPage({ viewport });
      await guest.goto(sharedPath);
      await guestHeading(guest, 'Summer');
      await guest.getByText('Shared by owner').waitFor();
      await expect(guest.locator('[data-testid="navbar"]').count()).resolves.toBe(0);
      await expect.poll(() => guest.locator('.picture-grid img').count()).toBe(1);
      await expect(guest.getByRole('button', { name: 'Open Not shared' }).count()).resolves.toBe(0);
      await site.screenshot(guest, viewport === PHONE ? 'albums-guest-phone' : 'albums-guest-desktop');
      if (viewport === PHONE) await expect(seriousAxeViolations(guest)).resolves.toEqual([]);
      await guest.getByRole('button', { name: 'Open Beach day' }).click();
      const guestViewer = guest.getByTestId('picture-viewer');
      await guestViewer.getByText('Taken on: July 15, 2021').waitFor();
      await guestViewer.getByRole('link', { name: 'Download the original' }).waitFor();
      await guestViewer.getByTestId('social-comment').getByText('Our first swim of the year').waitFor();
      await expect(guestViewer.getByLabel('Add a comment').count()).resolves.toBe(0);
      await expect(guestViewer.getByRole('button', { name: 'Heart', exact: true }).count()).resolves.toBe(0);
      await expect.poll(() => guestViewer.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(900);
      await site.screenshot(guest, viewport === PHONE ? 'albums-guest-viewer-phone' : 'albums-guest-viewer-desktop');
      // The dialog is not a figure with a role (a minor rule, which the serious check above lets pass); one download.
      await expect(axeViolations(guest).then((all) => all.map((v) => v.id))).resolves.not.toContain('aria-allowed-role');
      await expect(guestViewer.getByRole('link', { name: /download/i }).count()).resolves.toBe(1);
      expect(site.pageErrors(guest)).toEqual([]);
    }

    // Revoke: the guest's page and every file of the link are gone.
    const guest = await site.newPage({ viewport: PHONE });
    await guest.goto(sharedPath);
    await expect.poll(() => guest.locator('.picture-grid img').count()).toBe(1);
    const thumbSrc = await guest.locator('.picture-grid img').getAttribute('src');
    await owner.getByTestId('share-list').getByRole('button', { name: 'Revoke' }).click();
    await owner.getByText('No working links.').waitFor();
    // The guest's page, still open, finds out at its next load (the picture, its hearts and comments): no broken image.
    await guest.getByRole('button', { name: 'Open Beach day' }).click();
    await guestHeading(guest, 'This link is no longer shared');
    await expect(guest.getByText('Could not load the hearts and comments').count()).resolves.toBe(0);
    await expect(guest.locator('img').count()).resolves.toBe(0);
    await guest.reload();
    await guestHeading(guest, 'This link is no longer shared');
    await expect(guest.locator('.picture-grid img').count()).resolves.toBe(0);
    expect((await guest.request.get(thumbSrc ?? '')).status()).toBe(404);
    await site.screenshot(guest, 'albums-revoked-phone');

    // An upload link: a guest sends a picture under a name; the owner approves it, seeing the name.
    await owner.getByRole('button', { name: 'Create upload link' }).click();
    const uploadLink = await expect.poll(() => owner.getByLabel('Upload link').inputValue()).toMatch(/\/upload\//).then(() => owner.getByLabel('Upload link').inputValue());
    const sender = await site.newPage({ viewport: PHONE });
    await sender.goto(new URL(uploadLink).pathname);
    await guestHeading(sender, 'Send pictures to “Summer”');
    await expect(seriousAxeViolations(sender)).resolves.toEqual([]);
    await sender.getByLabel('Your name').fill('Aunt May');
    const cake = await sharp({ create: { width: 500, height: 400, channels: 3, background: '#e0c040' } }).png().toBuffer();
    await sender.getByLabel('Pictures or videos').setInputFiles([{ name: 'cake.png', mimeType: 'image/png', buffer: cake }]);
    await sender.getByRole('button', { name: 'Upload' }).click();
    await sender.getByRole('status').getByText('cake.png: Uploaded. The site’s owner will look at it before it is shown.').waitFor();
    await site.screenshot(sender, 'albums-guest-upload-phone', { fullPage: true });
    expect(site.pageErrors(sender)).toEqual([]);

    await owner.goto('/admin/pictures');
    await waitForShell(owner);
    const item = owner.getByTestId('approval-list').locator('li');
    await expect.poll(() => item.count()).toBe(1);
    await item.getByText(/from Aunt May \(guest link\)/).waitFor();
    await item.getByRole('button', { name: 'Approve' }).click();
    await owner.getByText('Nothing is waiting for approval.').waitFor();
    await owner.goto(albumUrl);
    await waitForShell(owner);
    await expect.poll(() => owner.getByTestId('picture-grid').locator('li').count()).toBe(2);

    // The admin's list of links: the upload link, with Revoke.
    await owner.goto('/admin');
    await waitForShell(owner);
    const links = owner.locator('section', { has: owner.getByRole('heading', { name: 'Shared links' }) });
    await links.getByRole('cell', { name: 'Upload', exact: true }).waitFor();
    await links.getByRole('cell', { name: 'Summer' }).waitFor();
    await links.getByRole('cell', { name: '1 upload', exact: true }).waitFor();
    await links.scrollIntoViewIfNeeded();
    await site.screenshot(owner, 'albums-admin-links-desktop');
    await links.getByRole('button', { name: 'Revoke' }).click();
    await links.getByText('No working links.').waitFor();
    await owner.goto('/personal/pictures/albums');
    await waitForShell(owner);
    await owner.getByTestId('album-list').getByText('2 pictures · Family').waitFor();
    await site.screenshot(owner, 'albums-list-desktop');
    expect(site.pageErrors(owner)).toEqual([]);

    // The owner's pages on a phone.
    const phone = await site.newPage({ viewport: PHONE });
    await logIn(phone, 'owner', 'owner-password');
    await phone.waitForURL('**/personal');
    await phone.goto('/personal/pictures/albums');
    await waitForShell(phone);
    await phone.getByTestId('album-list').getByText('Summer').waitFor();
    await site.screenshot(phone, 'albums-list-phone', { fullPage: true });
    await phone.goto(albumUrl);
    await waitForShell(phone);
    await phone.getByRole('button', { name: 'Share' }).click();
    // A link whose guests keep where each picture was taken (otherwise their originals come without it).
    await phone.getByLabel('Include location').check();
    await phone.getByRole('button', { name: 'Create view link' }).click();
    await phone.getByTestId('share-list').getByText(/^View link, location included · /).waitFor();
    await site.screenshot(phone, 'albums-share-dialog-phone', { fullPage: true });
    expect(site.pageErrors(phone)).toEqual([]);
  });
});
