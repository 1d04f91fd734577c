import { it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, DESKTOP, describeInBrowser, expect, seriousAxeViolations, useSite } from './harness.ts';
import { open, ownerAndMember, setLevel } from './members.ts';

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
    await house.getByText('Offline', { exact: true }).waitFor();
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
