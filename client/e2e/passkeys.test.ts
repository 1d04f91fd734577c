import { it } from 'vitest';
import { DESKTOP, PHONE, closeWelcome, describeInBrowser, expect, useSite, waitForShell } from './harness.ts';

/**
 * Passkeys in real Chromium with its virtual authenticator (CDP WebAuthn domain). The site is opened
 * as localhost: browsers refuse passkeys on an IP address such as 127.0.0.1.
 */
describeInBrowser('passkeys: add on the account page, sign in with it', () => {
  const site = useSite();

  it('adds a passkey, signs out, and signs in with the passkey', async () => {
    const base = site.server.baseUrl.replace('127.0.0.1', 'localhost');
    const context = await site.browser.newContext({ viewport: DESKTOP, baseURL: base, serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });

      await page.goto('/login');
      await waitForShell(page);
      const signupPanel = page.locator('form', { has: page.getByRole('heading', { name: 'Create Account' }) });
      await signupPanel.getByLabel('Name').fill('owner');
      await signupPanel.getByLabel('Password', { exact: true }).fill('owner-password');
      await signupPanel.getByLabel('Confirm Password').fill('owner-password');
      await signupPanel.getByRole('button', { name: 'Make Account' }).click();
      await page.waitForURL('**/personal');
      await waitForShell(page);
      await closeWelcome(page, 'Cancel');

      await page.goto('/personal/account');
      await waitForShell(page);
      const card = page.getByRole('region', { name: 'Passkeys' });
      await card.getByText('No passkeys yet.').waitFor();
      await card.getByText('An account holds at most 20.', { exact: false }).waitFor();
      await card.getByLabel('Passkey name').fill('Test laptop');
      await card.getByRole('button', { name: 'Add a passkey' }).click();
      await card.getByRole('status').filter({ hasText: 'Passkey Test laptop added.' }).waitFor();
      await card.getByRole('button', { name: 'Remove Test laptop' }).waitFor();
      await site.screenshot(page, 'account-passkeys-desktop');
      await page.setViewportSize(PHONE);
      await site.screenshot(page, 'account-passkeys-phone', { fullPage: true });
      await page.setViewportSize(DESKTOP);

      await page.goto('/logout');
      await page.waitForURL('**/about');
      await page.goto('/login');
      await waitForShell(page);
      await expect(page.evaluate(() => fetch('/trpc/auth.status').then((r) => r.json()))).resolves.toMatchObject({ result: { data: { user: null } } });
      await page.setViewportSize(PHONE);
      await site.screenshot(page, 'login-passkey-phone');
      await page.setViewportSize(DESKTOP);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL('**/personal');
      await waitForShell(page);
      await expect(page.evaluate(() => fetch('/trpc/auth.status').then((r) => r.json()))).resolves.toMatchObject({ result: { data: { user: 'owner', level: 3 } } });
      await site.screenshot(page, 'passkey-signed-in');

      // A password change (its box left ticked) removes the passkey: it no longer signs in.
      await page.goto('/personal/account');
      await waitForShell(page);
      const form = page.getByRole('form', { name: 'Change password' });
      await form.getByLabel('Current password').fill('owner-password');
      await form.getByLabel('New password', { exact: true }).fill('a brand new secret');
      await form.getByLabel('Confirm new password').fill('a brand new secret');
      await form.getByRole('button', { name: 'Change password' }).click();
      await form.getByRole('status').filter({ hasText: 'your passkeys and API tokens are removed' }).waitFor();
      await card.getByText('No passkeys yet.').waitFor();
      await page.goto('/logout');
      await page.waitForURL('**/about');
      await page.goto('/login');
      await waitForShell(page);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByText('That passkey is not known here', { exact: false }).waitFor();
    } finally {
      await context.close();
    }
  });
});
