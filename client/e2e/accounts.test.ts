import { DESKTOP, PHONE, closeWelcome, describeInBrowser, expect, logIn, signUp, signUpOwner, useSite, waitForShell } from './harness.ts';
import { it } from 'vitest';

/** The links a Friend (level 1) sees in the hub's Cool Stuff section on an ordinary port. */
const LEVEL_1_LINKS = ['5eTools', 'Pictures', 'YT-DL', 'TODO', 'Game Servers', 'Settings', 'API reference', 'Changelog'];

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

describeInBrowser('the account page: password, devices, reset links', () => {
  const site = useSite();

  it('changes the password: the old one fails, the other session ends, this one stays', async () => {
    const laptop = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(laptop, 'owner', 'owner-password');
    const phone = await site.newPage({ viewport: PHONE });
    await logIn(phone, 'owner', 'owner-password');
    await phone.waitForURL('**/personal');

    // The navbar's user menu leads to the account page.
    await laptop.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logout', exact: true }).hover();
    await laptop.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account', exact: true }).click();
    await laptop.waitForURL('**/personal/account');
    await waitForShell(laptop);
    const form = laptop.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('wrong-password');
    await form.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await form.getByLabel('Confirm new password').fill('a brand new secret');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('alert').filter({ hasText: 'The current password is not right' }).waitFor();
    // The same password again is no change; "Also remove my passkeys and tokens" is on unless unticked.
    await form.getByLabel('Current password').fill('owner-password');
    await form.getByLabel('New password', { exact: true }).fill('owner-password');
    await form.getByLabel('Confirm new password').fill('owner-password');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('alert').filter({ hasText: 'The new password is the same as the current one; choose another' }).waitFor();
    await expect(form.getByRole('checkbox', { name: 'Also remove my passkeys and tokens' }).isChecked()).resolves.toBe(true);
    await form.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await form.getByLabel('Confirm new password').fill('a brand new secret');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('status').filter({ hasText: 'Password changed. Every other device is signed out, and your passkeys and API tokens are removed.' }).waitFor();
    await site.screenshot(laptop, 'account-password-changed-desktop', { fullPage: true });

    // The phone's session ended; the laptop's did not.
    await phone.reload();
    await phone.waitForURL('**/login');
    await laptop.reload();
    await waitForShell(laptop);
    await laptop.getByRole('heading', { name: 'Account', exact: true }).waitFor();

    const stranger = await site.newPage();
    await logIn(stranger, 'owner', 'owner-password');
    await expect(stranger.getByTestId('login-error').getByRole('alert').textContent()).resolves.toBe('Incorrect username or password');
    await logIn(stranger, 'owner', 'a brand new secret');
    await stranger.waitForURL('**/personal');
  });

  it('lists the signed-in devices and signs one out, then everywhere else', async () => {
    const here = await site.newPage({ viewport: PHONE });
    await logIn(here, 'owner', 'a brand new secret');
    await here.waitForURL('**/personal');
    const there = await site.newPage({ viewport: DESKTOP });
    await logIn(there, 'owner', 'a brand new secret');
    await there.waitForURL('**/personal');
    const third = await site.newPage({ viewport: DESKTOP });
    await logIn(third, 'owner', 'a brand new secret');
    await third.waitForURL('**/personal');

    await here.goto('/personal/account');
    await waitForShell(here);
    const devices = here.getByRole('region', { name: 'Signed-in devices' });
    await devices.getByText('(this device)').waitFor();
    await expect.poll(() => devices.getByRole('button', { name: /^Sign out .* at 127\.0\.0\.1$/ }).count()).toBeGreaterThanOrEqual(2);
    await site.screenshot(here, 'account-devices-phone', { fullPage: true });
    const before = await devices.getByRole('button', { name: /^Sign out .* at / }).count();
    await devices.getByRole('button', { name: /^Sign out .* at / }).first().click();
    await expect.poll(() => devices.getByRole('button', { name: /^Sign out .* at / }).count()).toBe(before - 1);
    await devices.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect.poll(() => devices.getByRole('button', { name: /^Sign out .* at / }).count()).toBe(0);
    for (const page of [there, third]) {
      await page.reload();
      await page.waitForURL('**/login');
    }
    await here.reload();
    await waitForShell(here);
    await devices.getByText('(this device)').waitFor();
  });

  it('gives a one-time reset link on /admin that sets a new password once and signs the member out', async () => {
    const owner = await site.newPage({ viewport: DESKTOP });
    await logIn(owner, 'owner', 'a brand new secret');
    await owner.waitForURL('**/personal');
    const kid = await site.newPage({ viewport: PHONE });
    await signUp(kid, 'kid', 'kid-password-1');
    await kid.waitForURL('**/preauth');

    await owner.goto('/admin');
    await waitForShell(owner);
    await owner.getByRole('button', { name: 'Reset link for kid' }).click();
    const box = owner.getByRole('status', { name: 'Reset link' });
    await box.waitFor();
    const linkIn = async () => (await box.locator('.copy-target').textContent())?.replace(/^COPY > /, '').trim() ?? '';
    const replaced = await linkIn();
    expect(replaced).toMatch(/\/reset-password#[A-Za-z0-9_-]{43}$/);
    // A second link for the kid replaces the first, which then says so.
    await owner.getByRole('button', { name: 'Reset link for kid' }).click();
    await expect.poll(linkIn).not.toBe(replaced);
    const link = await linkIn();
    expect(link).toMatch(/\/reset-password#[A-Za-z0-9_-]{43}$/);
    await site.screenshot(owner, 'admin-reset-link-desktop');
    // A success has the accent's outline, not the error's.
    const outline = await box.evaluate((element) => {
      const colourOf = (value: string) => {
        const probe = document.createElement('span');
        probe.style.color = value;
        element.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      };
      return { border: getComputedStyle(element).borderTopColor, accent: colourOf('var(--accent-color)'), error: colourOf('var(--error-color)') };
    });
    expect(outline.border).toBe(outline.accent);
    expect(outline.border).not.toBe(outline.error);
    const old = await site.newPage({ viewport: PHONE });
    await old.goto(replaced);
    await waitForShell(old);
    await old.getByRole('alert').filter({ hasText: 'This reset link was replaced by a newer one. Use the newest link you were sent, or ask an admin for a new one.' }).waitFor();

    const visitor = await site.newPage({ viewport: PHONE });
    await visitor.goto(link);
    await waitForShell(visitor);
    await visitor.getByText('A new password for').waitFor();
    // Before anything is sent, it says what will end.
    await visitor.getByText('Setting it signs out every device signed in to the account, and removes its passkeys and API tokens.').waitFor();
    await visitor.getByLabel('New password', { exact: true }).fill('kid-new-password');
    await visitor.getByLabel('Confirm new password').fill('kid-new-password');
    await visitor.getByRole('button', { name: 'Set password' }).click();
    await visitor.getByRole('status').filter({ hasText: 'Your password is set' }).waitFor();
    await site.screenshot(visitor, 'reset-password-done-phone');

    // The kid's old session ended (/preauth is shown to everyone, so ask a page that needs an account);
    // the new password works, the old one does not.
    await kid.goto('/personal/account');
    await kid.waitForURL('**/login');
    await logIn(kid, 'kid', 'kid-password-1');
    await expect(kid.getByTestId('login-error').getByRole('alert').textContent()).resolves.toBe('Incorrect username or password');
    await logIn(kid, 'kid', 'kid-new-password');
    await kid.waitForURL('**/preauth');

    // A second visit says the link is used.
    const again = await site.newPage({ viewport: PHONE });
    await again.goto(link);
    await waitForShell(again);
    await again.getByRole('alert').filter({ hasText: 'This reset link has been used already' }).waitFor();
  });

  it('shows the owner how many accounts wait for approval, live, on the hub and the Admin tab', async () => {
    const owner = await site.newPage({ viewport: DESKTOP });
    await logIn(owner, 'owner', 'a brand new secret');
    await owner.waitForURL('**/personal');
    await waitForShell(owner);
    // 'kid' (the reset-link test's account) still waits.
    const line = owner.getByTestId('hub-waiting-accounts');
    await expect.poll(() => line.textContent()).toBe('1 account waiting for approval');
    await expect.poll(() => owner.getByTestId('nav-waiting').textContent()).toBe('1, 1 account waiting for approval');

    const newcomer = await site.newPage({ viewport: PHONE });
    await signUp(newcomer, 'newcomer', 'newcomer-password');
    await newcomer.waitForURL('**/preauth');
    // No reload: the change feed brings the new count.
    await expect.poll(() => line.textContent(), { timeout: 10_000 }).toBe('2 accounts waiting for approval');
    await expect.poll(() => owner.getByTestId('nav-waiting').textContent()).toBe('2, 2 accounts waiting for approval');
    await site.screenshot(owner, 'hub-waiting-accounts-desktop');
    await line.getByRole('link').click();
    await owner.waitForURL('**/admin');
  });
});
