import { DESKTOP, PHONE, closeWelcome, describeInBrowser, expect, logIn, signUp, useSite, waitForShell } from './harness.ts';
import { it } from 'vitest';

/** The links a Friend (level 1) sees in the hub's Cool Stuff section on an ordinary port. */
const LEVEL_1_LINKS = ['5eTools', 'Pictures', 'YT-DL', 'TODO', 'Game Servers', 'Settings', 'Changelog'];

describeInBrowser('accounts: sign-up, pending, admin raise, login', () => {
  const site = useSite();

  it('shows the sign-up checks in the spec order before sending anything', async () => {
    const page = await site.newPage({ viewport: PHONE });
    await page.goto('/login');
    await waitForShell(page);
    const panel = page.locator('form', { has: page.getByRole('heading', { name: 'Create Account' }) });
    const bubble = page.getByTestId('signup-error');
    await panel.getByRole('button', { name: 'Make Account' }).click();
    await expect(bubble.textContent()).resolves.toBe('Username may not be empty');
    await panel.getByLabel('Name').fill('someone');
    await panel.getByLabel('Password', { exact: true }).fill('a');
    await panel.getByRole('button', { name: 'Make Account' }).click();
    await expect(bubble.textContent()).resolves.toBe('Password and Confirm Password do not match');
    await panel.getByLabel('Password', { exact: true }).fill('');
    await panel.getByRole('button', { name: 'Make Account' }).click();
    await expect(bubble.textContent()).resolves.toBe('Password may not be empty');
    // Enter alone only explains how to submit.
    await panel.getByLabel('Name').press('Enter');
    await page.getByText('Hold ctrl to submit with enter').waitFor();
    await expect(page.getByTestId('login-error').textContent()).resolves.toBe('');
    await site.screenshot(page, 'login-signup-checks-phone');
  });

  it('makes the first account the owner, and the owner sees the admin section', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await signUp(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    await waitForShell(page);
    await page.getByRole('dialog', { name: 'Welcome to the hub' }).waitFor();
    await site.screenshot(page, 'hub-welcome-popup');
    await closeWelcome(page, 'Cancel');
    await expect(page.getByRole('heading', { name: 'Admin', exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('hub-admin-links').getByRole('link').allTextContents()).resolves.toEqual([
      'Admin Dash',
      'Finance',
      'Dev Dash',
      'Old Home',
    ]);
    await site.screenshot(page, 'hub-owner-desktop', { fullPage: true });
    // Cancel hid the welcome popup for good.
    await page.reload();
    await waitForShell(page);
    await page.getByRole('heading', { name: 'Cool Stuff' }).waitFor();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });

  it('sends a second sign-up to /preauth, lets the owner raise it, then shows exactly the level-1 links', async () => {
    const newcomer = await site.newPage({ viewport: PHONE });
    await signUp(newcomer, 'friend', 'friend-password');
    await newcomer.waitForURL('**/preauth');
    await newcomer.getByText('must be manually authenticated').first().waitFor();
    await site.screenshot(newcomer, 'preauth-phone');

    // Logging in while pending lands on /preauth with the server's message.
    const pending = await site.newPage({ viewport: PHONE });
    await logIn(pending, 'friend', 'friend-password');
    await pending.waitForURL('**/preauth');

    const owner = await site.newPage({ viewport: DESKTOP });
    await logIn(owner, 'owner', 'owner-password');
    await owner.waitForURL('**/personal');
    await owner.goto('/admin');
    await waitForShell(owner);
    const select = owner.getByLabel('Level of friend');
    await expect(select.inputValue()).resolves.toBe('0');
    await select.selectOption('1');
    await owner.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await owner.getByRole('region', { name: 'Backups' }).getByText('Not scheduled: set BACKUP_DIR for the server to make them').waitFor();
    await site.screenshot(owner, 'admin-users-desktop');
    await owner.reload();
    await waitForShell(owner);
    await expect(owner.getByLabel('Level of friend').inputValue()).resolves.toBe('1');

    const friend = await site.newPage({ viewport: PHONE });
    await logIn(friend, 'friend', 'friend-password');
    await friend.waitForURL('**/personal');
    await waitForShell(friend);
    await closeWelcome(friend);
    const links = friend.getByTestId('hub-cool-links').getByRole('link');
    await expect(links.allTextContents()).resolves.toEqual(LEVEL_1_LINKS);
    await expect(friend.getByTestId('hub-admin-links').count()).resolves.toBe(0);
    await site.screenshot(friend, 'hub-friend-phone', { fullPage: true });

    // The wrong password is answered in the login panel's own bubble.
    const stranger = await site.newPage();
    await logIn(stranger, 'friend', 'wrong-password');
    await expect(stranger.getByTestId('login-error').getByRole('alert').textContent()).resolves.toBe('Incorrect username or password');
    await expect(stranger.getByTestId('signup-error').textContent()).resolves.toBe('');
    await site.screenshot(stranger, 'login-server-error-desktop');
  });
});
