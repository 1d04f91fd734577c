import { it } from 'vitest';
import { setLevel } from './members.ts';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, serviceWorkerControls, signUp, signUpOwner, useSite, waitForShell } from './harness.ts';

describeInBrowser('notifications: the bell, the inbox and the settings', () => {
  const site = useSite();

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('the bell counts a sign-up live, the inbox opens its page, mark all read (%s)', async (label, viewport) => {
    const owner = await site.newPage({ viewport });
    if (label === 'desktop') await signUpOwner(owner);
    else {
      await logIn(owner, 'owner', 'owner-password');
      await owner.waitForURL('**/personal');
      await waitForShell(owner);
    }
    const bell = owner.getByTestId('notification-bell');
    await bell.waitFor();
    await expect(bell.getAttribute('aria-label')).resolves.toBe('Notifications');
    // In the bar, in the title's slot: before the first tab, over no content.
    const [bellBox, barBox, aboutBox] = await Promise.all([bell.boundingBox(), owner.getByTestId('navbar').boundingBox(), owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About', exact: true }).boundingBox()]);
    if (!bellBox || !barBox || !aboutBox) throw new Error('bell, bar or About tab not laid out');
    expect(bellBox.y).toBeGreaterThanOrEqual(barBox.y);
    expect(bellBox.y + bellBox.height).toBeLessThanOrEqual(barBox.y + barBox.height);
    expect(bellBox.x + bellBox.width).toBeLessThanOrEqual(aboutBox.x);

    // Someone signs up in another browser: the owner's bell counts it without a reload.
    const newcomer = await site.newPage({ viewport });
    await signUp(newcomer, `newcomer-${label}`, 'newcomer-password');
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Notifications: 1 unread');
    await expect(owner.getByTestId('notification-count').textContent()).resolves.toBe('1');
    await site.screenshot(owner, `notifications-bell-${label}`);

    await bell.click();
    await owner.waitForURL('**/personal/notifications');
    const item = owner.getByRole('link', { name: 'An account waits for approval' }).first();
    await item.waitFor();
    await expect(owner.getByText(`newcomer-${label} signed up and waits for an admin.`).count()).resolves.toBe(1);
    await site.screenshot(owner, `notifications-inbox-${label}`, { fullPage: true });
    expect((await seriousAxeViolations(owner)).map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`)).toEqual([]);
    await owner.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications');
    await item.click();
    await owner.waitForURL('**/admin');
  });

  it('keeps the kinds and quiet hours on the Account page, and says plainly when the browser refuses', async () => {
    const page = await site.newPage({ viewport: PHONE });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    await page.goto('/personal/account');
    await waitForShell(page);
    const house = page.getByRole('region', { name: 'Notifications' }).getByLabel('Added to House To Do / To Get');
    await expect(house.isChecked()).resolves.toBe(true);
    const saved = page.waitForResponse((r) => r.url().includes('notifications.setSettings') && r.ok());
    await house.uncheck();
    await saved;
    // The planning kinds are switches like the others (listed from the contracts' NOTIFICATION_KINDS).
    await expect(page.getByRole('region', { name: 'Notifications' }).getByLabel('A chore is yours to do today (08:00)').isChecked()).resolves.toBe(true);
    const dinner = page.getByRole('region', { name: 'Notifications' }).getByLabel('You cook dinner tonight (15:00)');
    await expect(dinner.isChecked()).resolves.toBe(true);
    const dinnerSaved = page.waitForResponse((r) => r.url().includes('notifications.setSettings') && r.ok());
    await dinner.uncheck();
    await dinnerSaved;
    // Waited for from before the change: a fast save can answer before the fill returns.
    const quietSaved = page.waitForResponse((r) => r.url().includes('notifications.setSettings') && r.ok());
    await page.getByLabel('From', { exact: true }).fill('22:30');
    await quietSaved;
    await site.screenshot(page, 'notifications-settings-phone', { fullPage: true });
    await page.reload();
    await waitForShell(page);
    await expect(page.getByRole('region', { name: 'Notifications' }).getByLabel('Added to House To Do / To Get').isChecked()).resolves.toBe(false);
    await expect(page.getByRole('region', { name: 'Notifications' }).getByLabel('You cook dinner tonight (15:00)').isChecked()).resolves.toBe(false);
    await expect(page.getByLabel('From', { exact: true }).inputValue()).resolves.toBe('22:30');
    await expect(page.getByLabel('To', { exact: true }).inputValue()).resolves.toBe('07:00');
    // Headless Chromium here answers the permission request with a refusal (or has no push at all).
    const device = page.getByTestId('push-device');
    if ((await device.count()) > 0) {
      await device.click();
      await expect(page.getByTestId('push-note').textContent()).resolves.toBe(
        'This browser blocks notifications from this site. Allow them in the browser\u2019s site settings, then turn this on again.',
      );
    } else {
      await expect(page.getByTestId('push-note').textContent()).resolves.toBe('This browser cannot receive notifications.');
    }
    await site.screenshot(page, 'notifications-refused-phone', { fullPage: true });
  });

  it('keeps the member\'s time zone: the first device fills it, another device\'s save leaves it, the select changes it (390 px)', async () => {
    const owner = await site.newPage();
    await logIn(owner, 'owner', 'owner-password');
    await owner.waitForURL('**/personal');
    const phone = await site.newPage({ viewport: PHONE, timezoneId: 'Asia/Bangkok' });
    await signUp(phone, 'traveller', 'traveller-password');
    await phone.waitForURL('**/preauth');
    await setLevel(owner, 'traveller', 2);
    await phone.goto('/personal/account');
    await waitForShell(phone);
    const zone = phone.getByLabel('Time zone', { exact: true });
    const note = phone.getByTestId('notification-time-zone-note');
    await expect(zone.inputValue()).resolves.toBe('Asia/Bangkok');
    await expect(note.textContent()).resolves.toBe("Not saved yet: your first change here keeps this device's zone, Asia/Bangkok.");
    // The first save, of a switch, fills the zone from this phone.
    const firstSave = phone.waitForResponse((r) => r.url().includes('notifications.setSettings') && r.ok());
    await phone.getByRole('region', { name: 'Notifications' }).getByLabel('Added to House To Do / To Get').uncheck();
    await firstSave;
    await expect(note.textContent()).resolves.toBe('Quiet hours and the daily notifications (chores at 08:00, dinner at 15:00, On this day) follow it. It changes only here.');
    await expect(phone.getByText('Times are in your time zone, Asia/Bangkok.').count()).resolves.toBe(1);
    await site.screenshot(phone, 'notifications-time-zone-phone', { fullPage: true });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The zone's fieldset and select stay inside the card.
    const [card, fieldset] = await Promise.all([phone.locator('.notification-settings').boundingBox(), zone.locator('xpath=ancestor::fieldset[1]').boundingBox()]);
    if (!card || !fieldset) throw new Error('settings card or zone fieldset not laid out');
    expect(fieldset.x + fieldset.width).toBeLessThanOrEqual(card.x + card.width);

    // A desktop in UTC shows Bangkok, and saving another setting there leaves it.
    const desktop = await site.newPage({ viewport: DESKTOP, timezoneId: 'UTC' });
    await logIn(desktop, 'traveller', 'traveller-password');
    await desktop.waitForURL('**/personal');
    await desktop.goto('/personal/account');
    await waitForShell(desktop);
    const desktopZone = desktop.getByLabel('Time zone', { exact: true });
    await expect(desktopZone.inputValue()).resolves.toBe('Asia/Bangkok');
    await expect(desktop.getByTestId('notification-time-zone-note').textContent()).resolves.toBe(
      "Quiet hours and the daily notifications (chores at 08:00, dinner at 15:00, On this day) follow it. It changes only here, not with this device's zone (UTC).",
    );
    const desktopSave = desktop.waitForResponse((r) => r.url().includes('notifications.setSettings') && r.ok());
    await desktop.getByRole('region', { name: 'Notifications' }).getByLabel('You cook dinner tonight (15:00)').uncheck();
    await desktopSave;
    await desktop.reload();
    await waitForShell(desktop);
    await expect(desktop.getByRole('region', { name: 'Notifications' }).getByLabel('You cook dinner tonight (15:00)').isChecked()).resolves.toBe(false);
    await expect(desktopZone.inputValue()).resolves.toBe('Asia/Bangkok');

    // Chosen on purpose on the phone: it changes, and the desktop reads the new one.
    const chosen = phone.waitForResponse((r) => r.url().includes('notifications.setSettings') && r.ok());
    await zone.selectOption('Europe/Oslo');
    await chosen;
    await phone.reload();
    await waitForShell(phone);
    await expect(zone.inputValue()).resolves.toBe('Europe/Oslo');
    await expect(phone.getByText('Times are in your time zone, Europe/Oslo.').count()).resolves.toBe(1);
    await desktop.reload();
    await waitForShell(desktop);
    await expect(desktopZone.inputValue()).resolves.toBe('Europe/Oslo');
  });

  it('shows a pushed notification from the service worker, with its page to open (DevTools protocol)', async () => {
    const context = await site.newContext(DESKTOP, { serviceWorkers: 'allow' });
    await context.grantPermissions(['notifications'], { origin: site.server.baseUrl });
    const page = await site.newPage({ context });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    await waitForShell(page);
    await serviceWorkerControls(page);
    // Headless Chromium cannot subscribe to a real push service here: the push is handed to the
    // service worker through the DevTools protocol, with the payload the server sends.
    const cdp = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }: { registrations: { registrationId: string; scopeURL: string }[] }) => {
        const found = registrations.find((r) => r.scopeURL === site.url('/'));
        if (found) resolve(found.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registration;
    const message = { id: 77, kind: 'house.added', title: 'Fam added milk', body: 'House To Get', url: '/house' };
    const shown = () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url })));
    // The protocol hands a push to the worker only once it is running; on a loaded machine the first
    // may be dropped, so it is handed again (the same tag: one notification however often it comes).
    for (let attempt = 0; attempt < 3 && (await shown()).length === 0; attempt++) {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: site.server.baseUrl, registrationId, data: JSON.stringify(message) });
      await expect.poll(async () => (await shown()).length, { timeout: 5_000 }).toBeGreaterThan(0).catch(() => undefined);
    }
    await expect.poll(shown).toEqual([{ title: 'Fam added milk', body: 'House To Get', tag: 'event77', url: '/house' }]);

    // Its click: headless Chromium has no notification to click, so the worker is handed the click
    // event for the notification it showed. The open window is taken to the notification's page (no
    // second window); bringing it forward is the browser's part and cannot be seen headless.
    const [worker] = context.serviceWorkers();
    if (!worker) throw new Error('no service worker');
    await worker.evaluate(async () => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; NotificationEvent: new (type: string, init: { notification: Notification }) => Event };
      const [notification] = await scope.registration.getNotifications();
      if (!notification) throw new Error('no notification shown');
      try {
        self.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
      } catch {
        // waitUntil refuses an event the browser did not make; the handler's work has started.
      }
    });
    await page.waitForURL('**/house');
    expect(context.pages()).toHaveLength(1);
    await expect.poll(async () => (await shown()).length).toBe(0);
  });
});
