import { afterAll, beforeAll, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../server/src/testing/webhook-receiver.ts';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, signUpOwner, useSite, waitForShell } from './harness.ts';

describeInBrowser('webhooks: the Account page\'s Webhooks section', () => {
  const site = useSite({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => receiver?.close());

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('adds a webhook, copies its secret, sends a test, sees the delivery, deletes it (%s)', async (label, viewport) => {
    const page = await site.newPage({ viewport });
    if (label === 'desktop') await signUpOwner(page);
    else {
      await logIn(page, 'owner', 'owner-password');
      await page.waitForURL('**/personal');
      await waitForShell(page);
    }
    await page.goto('/personal/account');
    const card = page.getByRole('region', { name: 'Webhooks' });
    await card.waitFor();
    // A host outside WEBHOOK_ALLOWED_HOSTS is refused with the owner's setting named.
    await card.getByLabel('Address').fill('http://10.1.2.3/hook');
    await card.getByLabel('Added to House To Do / To Get').check();
    await card.getByRole('button', { name: 'Add webhook' }).click();
    await expect.poll(() => page.getByTestId('webhooks-error').textContent(), { timeout: 15_000 }).toBe(
      '10.1.2.3 is not a host webhooks may be sent to: the site\'s owner lists the allowed ones in WEBHOOK_ALLOWED_HOSTS',
    );
    const url = `${receiver.url}/ha-${label}`;
    await card.getByLabel('Address').fill(url);
    await card.getByRole('button', { name: 'Add webhook' }).click();
    const secretBox = card.getByRole('status', { name: 'New webhook' });
    await secretBox.waitFor();
    const secret = ((await secretBox.locator('.copy-target').textContent()) ?? '').replace(/^COPY > /, '');
    expect(secret).toMatch(/^whsec_/);
    const row = card.getByRole('row').filter({ hasText: url });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('Active');

    const from = receiver.received.length;
    await card.getByRole('button', { name: `Send test to ${url}` }).click();
    await card.getByRole('status', { name: 'Test result' }).waitFor();
    await expect(card.getByRole('status', { name: 'Test result' }).textContent()).resolves.toMatch(/^Test sent: answered 200 in \d+ ms\.$/);
    const got = receiver.received[from];
    if (!got) throw new Error('the test did not arrive');
    // Signed (the server's tests verify it with the standardwebhooks verifier).
    expect(got.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'webhook.test', data: { member: 'owner' } });

    await card.getByRole('button', { name: `Deliveries to ${url}` }).click();
    const log = card.getByRole('region', { name: `Deliveries to ${url}` });
    await log.getByRole('cell', { name: 'webhook.test' }).waitFor();
    await expect(log.getByRole('row').count()).resolves.toBe(2);
    await site.screenshot(page, `account-webhooks-${label}`, { fullPage: true });
    expect((await seriousAxeViolations(page)).map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`)).toEqual([]);

    await card.getByRole('button', { name: `Delete ${url}` }).click();
    await card.getByText('No webhooks yet.').waitFor();
  });
});
