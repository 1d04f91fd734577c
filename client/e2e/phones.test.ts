import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, signUp, signUpOwner, useSite, waitForShell } from './harness.ts';
import { setLevel } from './members.ts';

/** How far the page scrolls sideways (0 when everything fits the screen's width). */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const LONG_NAME = 'IMG_20240715_093000_family_reunion_at_the_lake_house_exported_from_the_camera_roll_0001.png';

describeInBrowser('phones: touch keyboards, long names, compact lists', () => {
  const site = useSite();
  let owner: Page;

  it('on a touch screen the login page has no ctrl tip and Enter ("Go") logs in', async () => {
    owner = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(owner);
    const context = await site.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, baseURL: site.server.baseUrl, serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      await page.goto('/login');
      await waitForShell(page);
      await expect(page.getByText(/hold ctrl/i).count()).resolves.toBe(0);
      const panel = page.locator('form', { has: page.getByRole('heading', { name: 'Log In' }) });
      await panel.getByLabel('Name').fill('owner');
      await panel.getByLabel('Password').fill('owner-password');
      await panel.getByLabel('Password').press('Enter');
      await page.waitForURL('**/personal');
      await site.screenshot(page, 'phones-touch-login-done');
    } finally {
      await context.close();
    }
    // A keyboard still gets the tip (and Ctrl+Enter, tested with the text input).
    const desk = await site.newPage({ viewport: DESKTOP });
    await desk.goto('/login');
    await waitForShell(desk);
    await desk.getByText('Tip: hold ctrl and press Enter in any field to submit its panel.').waitFor();
  });

  it('House on a phone: a 15-item To Get list is compact lines with their quantities; on a desktop no inner scroll box and a new item in view', async () => {
    const page = await site.newPage({ viewport: PHONE });
    await signUp(page, 'family', 'family-password');
    await page.waitForURL('**/preauth');
    await setLevel(owner, 'family', 2);
    await page.goto('/house');
    await waitForShell(page);
    const task = page.getByLabel('Task', { exact: true });
    const toGet = page.getByRole('region', { name: 'House To Get:' });
    for (let i = 1; i <= 15; i++) {
      await task.fill(`Item number ${i}`);
      await page.getByLabel('Quantity', { exact: true }).fill(`${i} kg`);
      await page.getByRole('button', { name: 'To Get', exact: true }).click();
      await toGet.getByRole('cell', { name: `${i} kg Item number ${i}`, exact: true }).waitFor();
    }
    const rows = toGet.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(15);
    await toGet.scrollIntoViewIfNeeded();
    await site.screenshot(page, 'phones-house-to-get-phone');
    // One line per item: its text on one line, beside its Complete button (a 40 px target), no card of labelled fields.
    const heights = await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThan(72);
    const textHeights = await rows.locator('td.house-text').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().height));
    expect(Math.max(...textHeights)).toBeLessThan(40);
    const first = rows.first();
    const [text, button] = await Promise.all([first.locator('td.house-text').boundingBox(), first.getByRole('button', { name: 'Complete Item number 1' }).boundingBox()]);
    expect(text && button && Math.abs(text.y + text.height / 2 - (button.y + button.height / 2))).toBeLessThan(12);
    const listHeight = (await toGet.boundingBox())?.height ?? Infinity;
    expect(listHeight).toBeLessThan(PHONE.height * 1.5);
    expect(await sideways(page)).toBe(0);

    await page.setViewportSize(DESKTOP);
    await page.evaluate(() => window.scrollTo(0, 0));
    const scrollBox = await toGet.evaluate((section) => {
      const box = section.querySelector('.house-scroll');
      return box ? box.scrollHeight - box.clientHeight : 0;
    });
    expect(scrollBox).toBeLessThanOrEqual(1);
    await task.fill('Item number 16');
    await page.getByRole('button', { name: 'To Get', exact: true }).click();
    const added = toGet.getByRole('cell', { name: 'Item number 16', exact: true });
    await added.waitFor();
    await expect.poll(() => added.evaluate((cell) => {
      const r = cell.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    })).toBe(true);
    await site.screenshot(page, 'phones-house-to-get-desktop');
  });

  it('the upload and approval pages fit a phone with a long file name, and Remove stays one word', async () => {
    const friend = await site.newPage({ viewport: PHONE });
    await signUp(friend, 'friend', 'friend-password');
    await friend.waitForURL('**/preauth');
    await setLevel(owner, 'friend', 1);
    await friend.goto('/personal/upload-pictures');
    await waitForShell(friend);
    const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3a7a5a' } }).png().toBuffer();
    await friend.getByLabel('Choose pictures or videos, or drop them here').setInputFiles([{ name: LONG_NAME, mimeType: 'image/png', buffer: png }]);
    const row = friend.getByTestId('upload-list').locator('li').first();
    await expect.poll(() => row.getByLabel('Year').inputValue()).not.toBe('');
    expect(await sideways(friend)).toBe(0);
    const remove = await row.getByRole('button', { name: 'Remove' }).boundingBox();
    expect(remove && remove.height).toBeLessThan(50);
    expect(remove && remove.width).toBeGreaterThan(60);
    await site.screenshot(friend, 'phones-upload-long-name-phone', { fullPage: true });
    await friend.getByRole('button', { name: 'Upload' }).click();
    await friend.getByRole('status').getByText(/Uploaded\. An admin approves/).waitFor();
    expect(await sideways(friend)).toBe(0);

    const admin = await site.newPage({ viewport: PHONE });
    await logIn(admin, 'owner', 'owner-password');
    await admin.waitForURL('**/personal');
    await admin.goto('/admin/pictures');
    await waitForShell(admin);
    await admin.getByTestId('approval-list').locator('li').first().waitFor();
    expect(await sideways(admin)).toBe(0);
    await site.screenshot(admin, 'phones-approval-long-name-phone', { fullPage: true });
  });
});
