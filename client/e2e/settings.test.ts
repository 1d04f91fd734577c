import { it } from 'vitest';
import { PHONE, describeInBrowser, expect, logIn, useSite, waitForShell, ownerOn } from './harness.ts';

const cssVar = (name: string) => `getComputedStyle(document.documentElement).getPropertyValue('${name}').trim()`;

describeInBrowser('settings: colours and navbar style', () => {
  const site = useSite();

  it('saves colours on the server, and they survive a reload on every page', async () => {
    const page = await ownerOn(site, '/personal/settings');

    // No reset arrows while every colour is the default.
    await expect(page.getByRole('button', { name: /^Reset / }).count()).resolves.toBe(0);
    await page.getByLabel('Background', { exact: true }).fill('#1a2b4c');
    await page.getByLabel('Menus', { exact: true }).fill('#3c1a4c');
    await expect(page.getByRole('button', { name: /^Reset / }).count()).resolves.toBe(2);
    await expect(page.evaluate(cssVar('--background-color'))).resolves.toBe('#1a2b4c');

    // Rotation turns hues but leaves links and errors alone.
    const linkBefore = await page.getByLabel('Links', { exact: true }).inputValue();
    await page.getByLabel('Rotate All Colors').fill('120');
    await expect(page.getByLabel('Links', { exact: true }).inputValue()).resolves.toBe(linkBefore);
    await expect(page.getByLabel('Background', { exact: true }).inputValue()).resolves.not.toBe('#1a2b4c');
    await page.getByLabel('Rotate All Colors').fill('0');
    await expect(page.getByLabel('Background', { exact: true }).inputValue()).resolves.toBe('#1a2b4c');

    await page.getByRole('button', { name: 'Save Colors' }).click();
    await page.getByText('Colors saved.').waitFor();
    await site.screenshot(page, 'settings-own-colours-desktop', { fullPage: true });

    await page.reload();
    await waitForShell(page);
    await expect(page.evaluate(cssVar('--background-color'))).resolves.toBe('#1a2b4c');
    await expect(page.getByLabel('Menus', { exact: true }).inputValue()).resolves.toBe('#3c1a4c');

    // The prerendered About page paints the same saved colours.
    await page.goto('/about');
    await waitForShell(page);
    await expect(page.evaluate(cssVar('--menu-color'))).resolves.toBe('#3c1a4c');
    await site.screenshot(page, 'about-own-colours-desktop');

    // Reset arrows put a default back.
    await page.goto('/personal/settings');
    await waitForShell(page);
    await page.getByRole('button', { name: 'Reset Background to default' }).click();
    await expect(page.getByLabel('Background', { exact: true }).inputValue()).resolves.toBe('#303330');
  });

  it('switches the navbar between scroll and button toggling, saved per user', async () => {
    const page = await site.newPage({ viewport: PHONE });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    await waitForShell(page);

    // Scroll mode (the default): scrolling down hides the bar, scrolling up shows it again.
    const navbar = page.getByTestId('navbar');
    await page.mouse.wheel(0, 600);
    await page.waitForFunction(() => document.querySelector('.navbar')?.classList.contains('navbar-hidden'));
    await page.mouse.wheel(0, -300);
    await page.waitForFunction(() => !document.querySelector('.navbar')?.classList.contains('navbar-hidden'));

    await page.goto('/personal/settings');
    await waitForShell(page);
    await page.getByRole('radio', { name: 'Button to toggle navbar' }).click();
    await expect.poll(() => page.getByRole('radio', { name: 'Button to toggle navbar' }).getAttribute('aria-checked')).toBe('true');
    await site.screenshot(page, 'settings-phone', { fullPage: true });
    await page.reload();
    await waitForShell(page);
    await page.getByRole('button', { name: 'Hide navigation bar' }).click();
    await expect(navbar.getAttribute('class')).resolves.toContain('navbar-hidden');
    await page.getByRole('button', { name: 'Show navigation bar' }).click();
    await expect(navbar.getAttribute('class')).resolves.not.toContain('navbar-hidden');
  });
});
