import { it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, DESKTOP, describeInBrowser, expect, logIn, seriousAxeViolations, signUp, useSite } from './harness.ts';
import { open, ownerAndMember, scriptedPage, setLevel } from './members.ts';

async function addHouseTask(page: Page, task: string, type: 'To Do' | 'To Get') {
  await page.getByLabel('Task', { exact: true }).fill(task);
  await page.getByRole('button', { name: type, exact: true }).click();
}

/** The rows the server holds, read through the documented /api path (so the queue's overlay is not counted). */
async function stored(page: Page, path: '/api/todo/house/get' | '/api/todo/get'): Promise<{ task: string; status: string }[]> {
  return page.evaluate(async (url) => (await fetch(url, { method: 'POST' })).json() as Promise<{ task: string; status: string }[]>, path);
}

describeInBrowser('offline queue: changes made offline are sent once when the network returns', () => {
  const site = useSite();

  it('keeps adds, a completion and a status change made offline, sends each once, and tells of a completion made meanwhile', async () => {
    const { owner, member } = await ownerAndMember(site, 'family');
    await setLevel(owner, 'family', 2);
    const house = member.page;
    const context = house.context();
    const todo = await context.newPage();
    todo.on('dialog', (dialog) => void dialog.accept('complete'));
    await open(house, '/house');
    await open(todo, '/personal/todo');
    await open(owner, '/house');
    const toGet = house.getByRole('region', { name: 'House To Get:' });
    const toDo = house.getByRole('region', { name: 'House To Do:' });
    const done = house.getByRole('region', { name: 'Recently done' });
    // Online first: the item both will complete, and a task of the member's own.
    await addHouseTask(house, 'Bread', 'To Get');
    await toGet.getByRole('cell', { name: 'Bread', exact: true }).waitFor();
    await todo.getByLabel('Task', { exact: true }).fill('Call the bank');
    await todo.getByRole('button', { name: 'Add Task' }).click();
    await todo.getByRole('cell', { name: 'Call the bank', exact: true }).waitFor();
    await owner.getByRole('button', { name: 'Complete Bread' }).waitFor();

    await context.setOffline(true);
    await house.locator('.offline-banner').getByText(/^You are offline: /).waitFor();
    // A change the server would refuse is refused at once, not queued.
    await house.getByLabel('Task', { exact: true }).fill('Bins');
    await house.getByLabel('Repeat every N days (To Do)').fill('0');
    await house.getByRole('button', { name: 'To Do', exact: true }).click();
    await house.getByRole('alert').getByText(/^Repeat every 1 to 365 days/).waitFor();
    await house.getByLabel('Repeat every N days (To Do)').fill('');
    await addHouseTask(house, 'Milk', 'To Get');
    await toGet.getByRole('cell', { name: 'Milk Waiting', exact: true }).waitFor();
    await expect(house.getByLabel('Task', { exact: true }).inputValue()).resolves.toBe('');
    await addHouseTask(house, 'Soap', 'To Do');
    await toDo.getByRole('cell', { name: 'Soap Waiting', exact: true }).waitFor();
    await house.getByRole('button', { name: 'Complete Bread' }).click();
    await done.getByRole('cell', { name: 'Bread Waiting', exact: true }).waitFor();
    await house.getByText('3 changes waiting', { exact: true }).waitFor();
    await todo.getByRole('button', { name: 'Active: change the status of Call the bank' }).click();
    await todo.getByRole('button', { name: 'Completed: change the status of Call the bank' }).waitFor();
    await todo.getByRole('cell', { name: 'Call the bank Waiting', exact: true }).waitFor();
    await todo.getByText('1 change waiting', { exact: true }).waitFor();
    await site.screenshot(house, 'offline-queue-house-waiting-desktop');
    await house.setViewportSize(PHONE);
    await site.screenshot(house, 'offline-queue-house-waiting-phone', { fullPage: true });
    await house.setViewportSize(DESKTOP);

    // Meanwhile another member, online, completes the same item.
    await owner.getByRole('button', { name: 'Complete Bread' }).click();
    await owner.getByRole('button', { name: 'Undo Bread' }).waitFor();

    await context.setOffline(false);
    const message = house.getByText('Bread was already completed by another member.', { exact: true });
    await message.waitFor();
    await house.locator('.sync-status').waitFor({ state: 'hidden' });
    await todo.locator('.sync-status').waitFor({ state: 'hidden' });
    await toGet.getByRole('cell', { name: 'Milk', exact: true }).waitFor();
    await todo.getByRole('cell', { name: 'Call the bank', exact: true }).waitFor();

    // Each change is stored exactly once; the completion made meanwhile stands, once.
    const rows = await stored(owner, '/api/todo/house/get');
    expect(rows.map((r) => [r.task, r.status]).sort()).toEqual([
      ['Bread', 'Complete'],
      ['Milk', 'To Get'],
      ['Soap', 'To Do'],
    ]);
    expect((await stored(todo, '/api/todo/get')).map((r) => [r.task, r.status])).toEqual([['Call the bank', 'Completed']]);
    await expect(done.getByRole('cell', { name: 'Bread', exact: true }).count()).resolves.toBe(1);

    expect(await seriousAxeViolations(house)).toEqual([]);
    await site.screenshot(house, 'offline-queue-house-conflict-desktop');
    await house.setViewportSize(PHONE);
    await site.screenshot(house, 'offline-queue-house-conflict-phone', { fullPage: true });
    await house.getByRole('button', { name: 'Dismiss: Bread was already completed by another member.' }).click();
    await message.waitFor({ state: 'detached' });
    expect(site.pageErrors(owner)).toEqual([]);
  });
});

/** The labels of every change the browser's offline queue holds, whoever made it. */
function queuedLabels(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const request = indexedDB.open('site-offline-queue');
        request.onerror = () => reject(new Error('no queue'));
        request.onsuccess = () => {
          const db = request.result;
          const all = db.transaction('changes').objectStore('changes').getAll();
          all.onsuccess = () => resolve((all.result as { label: string }[]).map((c) => c.label));
          all.onerror = () => reject(new Error('unreadable queue'));
        };
      }),
  );
}

describeInBrowser('offline queue on a shared browser: a waiting change follows the member who made it', () => {
  const site = useSite();

  it("never sends one member's waiting change as the next one's, and tells its maker at the next sign-in", async () => {
    const { owner } = await ownerAndMember(site, 'ben');
    await setLevel(owner, 'ben', 1);
    // One browser, two tabs: Anna's Todo in the first.
    const shared = await scriptedPage(site);
    const annaTab = shared.page;
    await signUp(annaTab, 'anna', 'anna-password');
    await annaTab.waitForURL('**/preauth');
    await setLevel(owner, 'anna', 1);
    const other = await annaTab.context().newPage();
    const noNetworkForTodo = (page: Page) => page.route('**/trpc/todo.add**', (route) => route.abort('internetdisconnected'));
    const addWaiting = async (task: string) => {
      await open(annaTab, '/personal/todo');
      await noNetworkForTodo(annaTab);
      await annaTab.getByLabel('Task', { exact: true }).fill(task);
      await annaTab.getByRole('button', { name: 'Add Task' }).click();
      await annaTab.getByRole('cell', { name: `${task} Waiting`, exact: true }).waitFor();
    };
    /** Anna's tab has the network again and tries to send what waits (as its timer would within 15 s). */
    const networkBack = async () => {
      await annaTab.unrouteAll();
      await annaTab.evaluate(() => window.dispatchEvent(new Event('online')));
    };
    const bensTasks = async () => ((await other.evaluate(async () => (await fetch('/api/todo/get', { method: 'POST' })).json())) as { task: string }[]).map((t) => t.task);

    // 1. While a change of Anna's waits, her session ends elsewhere (the other tab, another device, an
    // expiry) and Ben signs in in the other tab. Her tab, not yet aware, gets the network back and
    // tries to send the change: with the browser's cookie, now Ben's.
    await addWaiting('Anna private');
    await other.goto('/about');
    await other.evaluate(() => fetch('/api/logout', { method: 'POST' }));
    await logIn(other, 'ben', 'ben-password');
    await other.waitForURL('**/personal');
    await networkBack();
    await annaTab.getByText('1 change waiting', { exact: true }).waitFor({ state: 'detached' });
    await expect.poll(() => queuedLabels(other), { timeout: 20_000 }).toEqual([]);
    await other.waitForTimeout(1_000);
    expect(await bensTasks()).toEqual([]);
    await open(other, '/personal/todo');
    await other.waitForTimeout(1_000);
    await expect(other.getByText(/not sent/).count()).resolves.toBe(0);

    // 2. Anna signs in again: she alone is told.
    await other.goto('/logout');
    await other.waitForURL('**/about');
    await logIn(other, 'anna', 'anna-password');
    await other.waitForURL('**/personal');
    await open(annaTab, '/personal/todo');
    const text = '1 change you made offline on this device was not sent: you were signed out before it could be. Make it again if still needed.';
    await annaTab.getByText(text, { exact: true }).waitFor();
    await site.screenshot(annaTab, 'offline-queue-unsent-told-desktop');
    await annaTab.setViewportSize(PHONE);
    await site.screenshot(annaTab, 'offline-queue-unsent-told-phone', { fullPage: true });
    await annaTab.setViewportSize(DESKTOP);
    await annaTab.getByRole('button', { name: `Dismiss: ${text}` }).click();

    // 3. Another change waits and she signs out through the page: asked first, she signs out anyway.
    await addWaiting('Anna second');
    await other.goto('/logout');
    await other.getByRole('heading', { name: '1 change not sent yet' }).waitFor();
    expect(await seriousAxeViolations(other)).toEqual([]);
    await site.screenshot(other, 'offline-queue-logout-unsent-desktop');
    await other.setViewportSize(PHONE);
    await site.screenshot(other, 'offline-queue-logout-unsent-phone', { fullPage: true });
    await other.setViewportSize(DESKTOP);
    await other.getByRole('button', { name: 'Sign out anyway' }).click();
    await other.waitForURL('**/about');
    expect(await queuedLabels(other)).toEqual([]);
    await logIn(other, 'ben', 'ben-password');
    await other.waitForURL('**/personal');
    await networkBack();
    await other.waitForTimeout(1_000);
    expect(await bensTasks()).toEqual([]);
    expect(site.pageErrors(other)).toEqual([]);
  });
});
