import { it } from 'vitest';
import { PHONE, describeInBrowser, expect, seriousAxeViolations, signUpOwner, startServer, useSite } from './harness.ts';
import { open, ownerAndMember, setLevel } from './members.ts';

describeInBrowser('house: the shared list', () => {
  const site = useSite();

  it('family add To Do and To Get tasks and complete them; a friend only reads', async () => {
    const { owner, member } = await ownerAndMember(site, 'family');
    const { page } = member;
    await setLevel(owner, 'family', 2);
    await open(page, '/house');
    const task = page.getByLabel('Task', { exact: true });
    await task.fill('Fix the tap');
    await page.getByRole('button', { name: 'To Do', exact: true }).click();
    await page.getByRole('cell', { name: 'Fix the tap', exact: true }).waitFor();
    await task.fill('Milk');
    await page.getByLabel('Quantity', { exact: true }).fill('2 l');
    await page.getByRole('button', { name: 'To Get', exact: true }).click();
    const toGet = page.getByRole('region', { name: 'House To Get:' });
    await toGet.getByRole('cell', { name: '2 l Milk', exact: true }).waitFor();
    await expect(page.getByRole('region', { name: 'House To Do:' }).getByRole('cell', { name: '2 l Milk', exact: true }).count()).resolves.toBe(0);
    // A repeating To Do with a note: completing it moves it to Recently done and adds the next one.
    await task.fill('Clean the bins');
    await page.getByLabel('Note', { exact: true }).fill('Both of them');
    await page.getByLabel('Repeat every N days (To Do)').fill('7');
    await page.getByRole('button', { name: 'To Do', exact: true }).click();
    const toDo = page.getByRole('region', { name: 'House To Do:' });
    const done = page.getByRole('region', { name: 'Recently done' });
    await toDo.getByText('Every 7 days', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Complete Clean the bins' }).click();
    await done.getByRole('button', { name: 'Undo Clean the bins' }).waitFor();
    await toDo.getByText(/^Every 7 days, due /).waitFor();
    await done.getByRole('button', { name: 'Undo Clean the bins' }).click();
    await done.getByText('Nothing here.').waitFor();
    await expect(toDo.getByText(/^Every 7 days/).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Complete Clean the bins' }).click();
    await done.getByRole('button', { name: 'Undo Clean the bins' }).waitFor();
    await page.getByRole('button', { name: 'Complete Fix the tap' }).click();
    await done.getByRole('button', { name: 'Undo Fix the tap' }).waitFor();
    await expect(toDo.getByRole('cell', { name: 'Fix the tap', exact: true }).count()).resolves.toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(page, 'house-family-desktop');

    // Nothing moves when the list arrives (Lighthouse's layout shift): the list is held back until
    // the form has been measured.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const isList = (url: URL) => url.pathname.includes('house.list');
    await page.route(isList, async (route) => {
      await held;
      await route.continue();
    });
    await open(page, '/house');
    const addTitle = page.getByRole('heading', { name: 'Add Task', exact: true });
    await page.getByText('Loading the list...').waitFor();
    const before = await addTitle.boundingBox();
    release();
    await toGet.getByRole('cell', { name: '2 l Milk', exact: true }).waitFor();
    expect(before).not.toBeNull();
    await expect(addTitle.boundingBox()).resolves.toEqual(before);
    await page.unroute(isList);

    // One level below: the list, without Complete buttons or the form.
    await setLevel(owner, 'family', 1);
    await page.setViewportSize(PHONE);
    await open(page, '/house');
    await toGet.getByRole('cell', { name: '2 l Milk', exact: true }).waitFor();
    await expect(page.getByRole('button', { name: /^(Complete|Undo) / }).count()).resolves.toBe(0);
    await expect(page.getByLabel('Task', { exact: true }).count()).resolves.toBe(0);
    await site.screenshot(page, 'house-friend-phone', { fullPage: true });
  });

  it('says "You are offline" within seconds of the server stopping, once, at 390 px: the live stream\'s drop is the signal', async () => {
    // A server of its own, to stop.
    const server = await startServer();
    const context = await site.browser.newContext({ viewport: PHONE, baseURL: server.baseUrl, serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      await signUpOwner(page);
      const live = page.waitForResponse((response) => new URL(response.url()).pathname === '/events');
      await open(page, '/house');
      await page.getByRole('heading', { name: 'House To Do:' }).waitFor();
      await live;
      await expect(page.locator('.offline-banner').count()).resolves.toBe(0);

      await server.stop();
      const stopped = Date.now();
      // The page makes no call of its own meanwhile: only the stream's drop can tell it.
      await page.locator('.offline-banner').getByText(/^You are offline: /).waitFor({ timeout: 5_000 });
      console.log(`[house] "You are offline" ${Date.now() - stopped} ms after the server stopped`);
      await expect(page.getByText(/offline/i).count()).resolves.toBe(1);
      await site.screenshot(page, 'house-server-stopped-phone');
    } finally {
      await context.close();
      await server.stop();
    }
  });
});
