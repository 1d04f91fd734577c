import pg from 'pg';
import { afterAll, beforeAll, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PHONE, describeInBrowser, expect, launchBrowser, signUp, signUpOwner, startServer, useSite, waitForShell, type RunningServer } from './harness.ts';
import { delayUntilSeen, expectWithinBound } from './live-bound.ts';
import { open, ownerAndMember, scriptedPage, setLevel } from './members.ts';

async function addHouseTask(page: Page, task: string, type: 'To Do' | 'To Get') {
  await page.getByLabel('Task', { exact: true }).fill(task);
  await page.getByRole('button', { name: type, exact: true }).click();
}

describeInBrowser('live: every open page follows changes made elsewhere', () => {
  const site = useSite();

  it('house, todo and game servers change on other pages, tabs and members within a second; a page catches up after a drop', async () => {
    const { owner, member } = await ownerAndMember(site, 'family');
    await setLevel(owner, 'family', 2);
    const family = member.page;
    // The member's open GET /events streams (a stream never finishes while it is open).
    const openStreams = new Set<unknown>();
    family.context().on('request', (r) => void (r.url().endsWith('/events') && openStreams.add(r)));
    family.context().on('requestfinished', (r) => void openStreams.delete(r));
    family.context().on('requestfailed', (r) => void openStreams.delete(r));
    // Someone signed out, on a phone, reading the house list.
    const visitor = await site.newPage();
    await open(family, '/house');
    await open(visitor, '/house');
    const visitorToGet = visitor.getByRole('region', { name: 'House To Get:' });

    const houseDelays: number[] = [];
    for (const item of ['Milk', 'Bread', 'Eggs']) {
      houseDelays.push(
        await delayUntilSeen(family, 'house.add', () => addHouseTask(family, item, 'To Get'), () => visitorToGet.getByRole('cell', { name: item, exact: true }).waitFor()),
      );
    }
    expectWithinBound(houseDelays, 'a house task added by a member, on a signed-out page');
    const completed = await delayUntilSeen(
      family,
      'house.complete',
      () => family.getByRole('button', { name: 'Complete Milk' }).click(),
      () => visitor.getByRole('region', { name: 'Recently done' }).getByRole('cell', { name: 'Milk', exact: true }).waitFor(),
    );
    expectWithinBound([completed], 'a house task completed');

    // Two tabs of one member share one connection; each follows the member's own Todo list.
    const tab1 = family;
    const tab2 = await family.context().newPage();
    await open(tab1, '/personal/todo');
    await open(tab2, '/personal/todo');
    const todoDelays: number[] = [];
    for (const task of ['Call the bank', 'Book the dentist', 'Pay the bill']) {
      todoDelays.push(
        await delayUntilSeen(
          tab1,
          'todo.add',
          async () => {
            await tab1.getByLabel('Task', { exact: true }).fill(task);
            await tab1.getByRole('button', { name: 'Add Task' }).click();
          },
          () => tab2.getByRole('cell', { name: task, exact: true }).waitFor(),
        ),
      );
    }
    expectWithinBound(todoDelays, "a member's Todo task, in the member's other tab");
    // One connection for the two tabs: only the tab holding the lock keeps a stream open.
    expect(openStreams.size).toBe(1);

    // Game servers: the owner adds one; a member's open page lists it.
    await open(owner, '/personal/game-servers');
    await open(tab2, '/personal/game-servers');
    const gameDelay = await delayUntilSeen(
      owner,
      'gameServers.add',
      async () => {
        await owner.getByLabel('Port').fill('9');
        await owner.getByLabel('Description').fill('Family survival world');
        await owner.getByRole('button', { name: 'Add', exact: true }).click();
      },
      () => tab2.getByRole('cell', { name: /^Family survival world/ }).waitFor(),
    );
    expectWithinBound([gameDelay], 'a game server added by the owner, on a member page');

    // The visitor loses the network; a change made meanwhile shows once it is back.
    await visitor.context().setOffline(true);
    await open(family, '/house');
    await addHouseTask(family, 'Butter', 'To Get');
    await visitor.waitForTimeout(500);
    await expect(visitorToGet.getByRole('cell', { name: 'Butter', exact: true }).count()).resolves.toBe(0);
    await visitor.context().setOffline(false);
    await visitorToGet.getByRole('cell', { name: 'Butter', exact: true }).waitFor({ timeout: 10_000 });
    await site.screenshot(visitor, 'live-house-visitor-desktop');
  });
});

describeInBrowser('live: a pending account waits on its own page', () => {
  const site = useSite();

  it('moves an open /preauth page (390 px) to the hub by itself within seconds of approval', async () => {
    const owner = await site.newPage();
    await signUpOwner(owner);
    const phone = await scriptedPage(site, PHONE);
    // The page's stream is open before the owner approves (it is what tells the page).
    const streaming = phone.page.waitForRequest((r) => r.url().endsWith('/events'));
    await signUp(phone.page, 'newbie', 'newbie-password');
    await phone.page.waitForURL('**/preauth');
    await phone.page.getByRole('heading', { name: 'Account pending' }).waitFor();
    await streaming;
    await phone.page.waitForTimeout(300);
    const approved = Date.now();
    await setLevel(owner, 'newbie', 1);
    await phone.page.waitForURL('**/personal', { timeout: 5_000 });
    const took = Date.now() - approved;
    await waitForShell(phone.page);
    await phone.page.getByRole('heading', { name: 'Cool Stuff' }).waitFor();
    await site.screenshot(phone.page, 'preauth-approved-hub-phone');
    expect(took).toBeLessThan(5_000);
  });
});

/** Two server processes on one PostgreSQL: a change through one shows on a page served by the other. */
describeInBrowser('live: across two server processes on PostgreSQL', () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  let browser: Browser | undefined;
  let servers: RunningServer[] = [];
  let dropDatabase: () => Promise<void> = async () => {};

  beforeAll(async () => {
    if (!adminUrl) return;
    const name = `site_e2e_live_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    dropDatabase = async () => {
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    };
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    // The first creates the tables; the second starts on them.
    const first = await startServer({ DATABASE_URL: url.toString() });
    const second = await startServer({ DATABASE_URL: url.toString() });
    servers = [first, second];
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await dropDatabase();
  });

  it.runIf(adminUrl)('shows a house task added through one instance on a page of the other within a second', async () => {
    const [one, two] = servers as [RunningServer, RunningServer];
    const ownerContext = await browser!.newContext({ baseURL: one.baseUrl });
    const visitorContext = await browser!.newContext({ baseURL: two.baseUrl });
    const owner = await ownerContext.newPage();
    const visitor = await visitorContext.newPage();
    await signUpOwner(owner);
    await owner.goto('/house');
    await waitForShell(owner);
    await visitor.goto('/house');
    await waitForShell(visitor);
    const delays: number[] = [];
    for (const item of ['Apples', 'Pears', 'Plums']) {
      delays.push(
        await delayUntilSeen(owner, 'house.add', () => addHouseTask(owner, item, 'To Get'), () =>
          visitor.getByRole('region', { name: 'House To Get:' }).getByRole('cell', { name: item, exact: true }).waitFor(),
        ),
      );
    }
    expectWithinBound(delays, 'a house task added through instance 1, on a page of instance 2');
    await ownerContext.close();
    await visitorContext.close();
  });
});

describeInBrowser('live: a stream ends after its lifetime and the page carries on', () => {
  const site = useSite({ LIVE_STREAM_SECONDS: '2' });

  it('connects again at once when the server ends the stream, and still shows changes made elsewhere', async () => {
    const { owner, member } = await ownerAndMember(site, 'family');
    await setLevel(owner, 'family', 2);
    const family = member.page;
    const streams: string[] = [];
    family.context().on('request', (r) => void (r.url().endsWith('/events') && streams.push(r.url())));
    await open(family, '/house');
    await open(owner, '/house');
    // Each stream lasts about 2 s; the page opens the next one itself.
    await expect.poll(() => streams.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await addHouseTask(owner, 'Soap', 'To Get');
    await family.getByRole('region', { name: 'House To Get:' }).getByRole('cell', { name: 'Soap', exact: true }).waitFor({ timeout: 5_000 });
    expect(site.pageErrors(family)).toEqual([]);
  });
});
