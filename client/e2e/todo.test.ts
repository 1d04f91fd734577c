import { it } from 'vitest';
import { PHONE, describeInBrowser, expect, seriousAxeViolations, useSite } from './harness.ts';
import { open, ownerAndMember, setLevel } from './members.ts';

describeInBrowser('todo: a member keeps their own list', () => {
  const site = useSite();

  it('adds tasks, changes status through the prompt, hides abandoned, refuses a pending account', async () => {
    const { owner, member } = await ownerAndMember(site, 'friend');
    const { page, answers, alerts } = member;
    await open(page, '/personal/todo');
    await page.waitForURL('**/preauth');

    await setLevel(owner, 'friend', 1);
    await open(page, '/personal/todo');
    const task = page.getByLabel('Task', { exact: true });
    for (const text of ['Water the plants', 'Call grandma']) {
      await task.fill(text);
      await task.press('Control+Enter');
      await page.getByRole('cell', { name: text, exact: true }).waitFor();
    }
    answers.push('complete', 'Finished', 'abandoned');
    await page.getByRole('button', { name: 'Active: change the status of Water the plants' }).click();
    await page.getByRole('button', { name: 'Completed: change the status of Water the plants' }).waitFor();
    // Completed sorts after Active.
    await expect(page.locator('tbody td.todo-text').allTextContents()).resolves.toEqual(['Call grandma', 'Water the plants']);
    await page.getByRole('button', { name: 'Active: change the status of Call grandma' }).click();
    await expect.poll(() => alerts.at(-1)).toBe('Finished is not a valid status.');
    await page.getByRole('button', { name: 'Active: change the status of Call grandma' }).click();
    await page.getByRole('cell', { name: 'Call grandma', exact: true }).waitFor({ state: 'detached' });
    await page.getByLabel(/Show abandoned/).check();
    await page.getByRole('cell', { name: 'Call grandma', exact: true }).waitFor();

    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(page, 'todo-desktop');
    await page.setViewportSize(PHONE);
    await site.screenshot(page, 'todo-phone', { fullPage: true });
  });
});
