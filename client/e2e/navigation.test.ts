import { it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, useSite, waitForShell, ownerOn } from './harness.ts';

describeInBrowser('navigation: navbar, keyboard, errors, print', () => {
  const site = useSite();

  it('shows About and Login to visitors, and / goes to /about', async () => {
    const page = await site.newPage({ viewport: PHONE });
    await page.goto('/');
    await page.waitForURL('**/about');
    await waitForShell(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(['S.O.', 'About', 'Login']);
    await site.screenshot(page, 'about-visitor-phone');
    await expect(site.pageErrors(page)).toEqual([]);
  });

  it('serves /about prerendered, with the cards and the round buttons working from the keyboard', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    const response = await page.request.get('/about');
    const html = await response.text();
    expect(html).toContain('id="overview"');
    expect(html).toContain('id="hobbies"');
    await page.goto('/about');
    await waitForShell(page);
    for (const id of ['overview', 'work', 'college', 'high-school', 'hobbies']) await page.locator(`#${id}`).waitFor();
    const mail = page.getByRole('link', { name: /^E-mail / });
    await mail.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => site.alerts(page)).toEqual([
      'Email address copied to clipboard. This is in case your device does not support mailto links.',
    ]);
    await site.screenshot(page, 'about-visitor-desktop');
    await expect(site.pageErrors(page)).toEqual([]);
  });

  it('works with the keyboard alone: focus opens dropdowns, Enter and Space activate', async () => {
    const page = await ownerOn(site, '/personal/changelog');

    // Tab from the top of the page: the skip link, title, About, then Contact, whose dropdown opens on focus.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toContain('Contact');
    const contact = page.locator('.navbar-tab.has-dropdown', { hasText: 'Contact' });
    await expect(contact.getAttribute('class')).resolves.toContain('open');
    await site.screenshot(page, 'navbar-keyboard-contact-open');

    // Into the dropdown with the arrows: Contact, Discord (copy).
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toContain('Discord');
    await page.keyboard.press('Enter');
    await expect.poll(() => site.alerts(page)).toEqual(['Discord username copied to clipboard']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect.poll(() => site.alerts(page)).toEqual(['Discord username copied to clipboard', 'Phone number copied to clipboard']);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expect.poll(() => site.alerts(page).at(-1)).toBe('Steam friend code copied to clipboard');

    // Leaving the group closes it after the hide delay; Cool Stuff opens, and Tab alone passes it by.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toContain('Cool Stuff');
    await expect.poll(() => contact.getAttribute('class')).not.toContain('open');
    const cool = page.locator('.navbar-tab.has-dropdown', { hasText: 'Cool Stuff' });
    await expect(cool.getAttribute('class')).resolves.toContain('open');

    // Walk the Cool Stuff list to Settings with the arrows and open it with Space.
    for (let i = 0; ; i++) {
      await page.keyboard.press('ArrowDown');
      const text = await page.evaluate(() => document.activeElement?.textContent ?? '');
      if (text === 'Settings') break;
      if (i > 30) throw new Error('Settings was not in the Cool Stuff dropdown');
    }
    await page.keyboard.press('Space');
    await page.waitForURL('**/personal/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    // Hover opens a dropdown too.
    await page.getByRole('link', { name: /Admin/ }).hover();
    await expect.poll(() => page.locator('.navbar-tab.has-dropdown', { hasText: 'Admin' }).getAttribute('class')).toContain('open');
    await site.screenshot(page, 'navbar-hover-admin-open');
  });

  it('collapses the bar on narrow windows by level, recalculating after a resize', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    await waitForShell(page);
    const navbar = page.getByTestId('navbar');
    await expect(navbar.getAttribute('data-layout')).resolves.toBe('wide');
    // Level 3 needs 6 units of 118 px: 700 px is 5 units, so the bar collapses.
    await page.setViewportSize({ width: 700, height: 800 });
    await expect.poll(() => navbar.getAttribute('data-layout'), { timeout: 3000 }).toBe('narrow');
    await expect(page.getByRole('navigation', { name: 'Main' }).locator('.navbar-link').allTextContents()).resolves.toEqual([
      'S.O.',
      'About',
      'Cool Stuff▾',
      'Logout▾',
    ]);
    await site.screenshot(page, 'navbar-narrow-owner-700');
  });

  it("answers an unknown address with 'How did you get here'", async () => {
    const page = await site.newPage({ viewport: PHONE });
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'How did you get here' }).waitFor();
    await site.screenshot(page, 'unknown-route-phone');
  });

  it('renders print addresses without navbar or cover', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await page.goto('/no-such-print-page');
    await page.getByRole('heading', { name: 'How did you get here' }).waitFor();
    await expect(page.getByTestId('navbar').count()).resolves.toBe(0);
    await expect(page.locator('.loading-cover').count()).resolves.toBe(0);
  });
});
