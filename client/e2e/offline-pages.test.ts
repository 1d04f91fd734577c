import { it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, describeInBrowser, expect, logIn, serviceWorkerControls, signUp, signUpOwner, useSite, waitForShell } from './harness.ts';
import { open, setLevel } from './members.ts';

/** Whether the page has kept an answer of this tRPC path in IndexedDB that contains `text`. */
async function keeps(page: Page, path: string, text: string): Promise<boolean> {
  return page.evaluate(
    ([wanted, needle]) =>
      new Promise<boolean>((resolve) => {
        const request = indexedDB.open('site');
        request.onerror = () => resolve(false);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('react-query')) return resolve(false);
          const get = db.transaction('react-query').objectStore('react-query').get('queries');
          get.onsuccess = () => {
            const queries = (get.result as { client?: { clientState: { queries: { queryKey: [string[]]; state: { data: unknown } }[] } } } | undefined)?.client?.clientState.queries ?? [];
            resolve(queries.some((q) => q.queryKey[0].join('.') === wanted && JSON.stringify(q.state.data).includes(needle)));
          };
          get.onerror = () => resolve(false);
        };
      }),
    [path, text] as const,
  );
}

/** Calls a tRPC mutation from a signed-in page. */
async function mutate(page: Page, path: string, input: unknown): Promise<number> {
  return page.evaluate(
    async ([p, body]) => (await fetch(`/trpc/${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
    [path, input] as const,
  );
}

const NOT_ON_DEVICE = 'This page has not been opened on this device yet: open it once with a connection';

describeInBrowser('offline: chores, pages never opened and /about (390 px)', () => {
  const site = useSite();

  it('after one visit, Chores opens offline with its last state and My week, Done waits; a page never opened says so; /about opened before the app opens offline', async () => {
    const owner = await site.newPage();
    await signUpOwner(owner);
    expect(await mutate(owner, 'chores.create', { name: 'Dishes', every: { days: 1 }, who: { anyone: true } })).toBe(200);

    const context = await site.newContext(PHONE, { serviceWorkers: 'allow' });
    const page = await context.newPage();
    // The prerendered About page first: it does not start the service worker, so nothing keeps its copy at this visit.
    await open(page, '/about');
    await signUp(page, 'family', 'family-password');
    await page.waitForURL('**/preauth');
    await setLevel(owner, 'family', 2);
    await open(page, '/house');
    await serviceWorkerControls(page);

    await open(page, '/house/chores');
    const row = page.locator('.chores-table tr').filter({ hasText: 'Dishes' });
    await row.getByRole('cell', { name: 'Anyone', exact: true }).waitFor();
    const myWeek = page.locator('section', { has: page.getByRole('heading', { name: 'My week' }) });
    await myWeek.getByText('Today: Dishes (anyone)', { exact: true }).waitFor();
    await expect.poll(() => keeps(page, 'chores.list', 'Dishes')).toBe(true);
    await expect.poll(() => keeps(page, 'plan.week', 'days')).toBe(true);

    // The network goes; the page reloads with its last state.
    await context.setOffline(true);
    await page.reload();
    await waitForShell(page);
    await row.getByRole('cell', { name: 'Anyone', exact: true }).waitFor();
    await myWeek.getByText('Today: Dishes (anyone)', { exact: true }).waitFor();
    await expect(page.getByText('Nothing for you this week.', { exact: true }).count()).resolves.toBe(0);
    await page.getByRole('status').filter({ hasText: /^Showing the chores as last loaded on / }).waitFor();
    await page.getByRole('button', { name: 'Done: Dishes' }).click();
    await page.getByText('1 change waiting', { exact: true }).waitFor();
    await row.getByText('Waiting', { exact: true }).waitFor();
    await site.screenshot(page, 'chores-offline-reload-phone', { fullPage: true });

    // A page this phone never opened: said in words, not the browser's "Failed to fetch dynamically imported module".
    await open(page, '/house/plan');
    await page.getByText(NOT_ON_DEVICE, { exact: true }).waitFor();
    await expect(page.getByText(/dynamically imported module/).count()).resolves.toBe(0);
    await site.screenshot(page, 'offline-page-not-on-device-phone');

    // /about, opened before the worker was there: the build's copy from the precache.
    await page.goto('/about');
    await waitForShell(page);
    await page.locator('#overview').waitFor();

    // Back online: the waiting Done is sent once.
    await context.setOffline(false);
    await open(page, '/house/chores');
    await page.getByText('1 change waiting', { exact: true }).waitFor({ state: 'hidden' });
    await expect
      .poll(async () => {
        const chores = (await (await owner.request.get(site.url('/trpc/chores.list'))).json()) as { result: { data: { name: string; last: { by: string } | null }[] } };
        return chores.result.data.find((c) => c.name === 'Dishes')?.last?.by ?? null;
      })
      .toBe('family');
  });

  it('a list that could not be loaded never says "Nothing for you this week"', async () => {
    const page = await site.newPage({ viewport: PHONE });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    // The chores' call fails (a proxy's error page): My week says it could not load, not "Nothing".
    await page.route((url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('chores.list'), (route) => route.fulfill({ status: 500, body: 'down' }));
    await open(page, '/house/chores');
    const myWeek = page.locator('section', { has: page.getByRole('heading', { name: 'My week' }) });
    await myWeek.getByText('Could not load your week.', { exact: true }).waitFor();
    await expect(myWeek.getByText('Nothing for you this week.', { exact: true }).count()).resolves.toBe(0);
  });
});

describeInBrowser('the "Ready to work offline" note on a phone\'s first visit', () => {
  const site = useSite();

  it('can be dismissed, and then leaves the meal slot form\'s Save and Clear uncovered (390 px)', async () => {
    const owner = await site.newPage();
    await signUpOwner(owner);
    // A phone whose first page of the site is the meal plan (signed in: the owner's session).
    const context = await site.newContext(PHONE, { serviceWorkers: 'allow' });
    await context.addCookies(await owner.context().cookies());
    const page = await context.newPage();
    await open(page, '/house/plan');
    const note = page.locator('.offline-ready');
    await note.getByText(/^(Getting ready to work offline…|Ready to work offline: )/).waitFor();
    await note.getByRole('button', { name: 'Dismiss the offline note' }).click();
    await note.waitFor({ state: 'hidden' });

    const today = page.locator('.plan-today');
    await today.getByRole('button', { name: /^Plan Dinner on / }).click();
    await today.getByLabel('Recipe or what is eaten').fill('Pizza out');
    const save = today.getByRole('button', { name: 'Save', exact: true });
    // The Save button at the very bottom of the screen, where the note sat: nothing covers it.
    await save.evaluate((button) => button.scrollIntoView({ block: 'end' }));
    const onTop = await save.evaluate((button) => {
      const box = button.getBoundingClientRect();
      return button.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
    });
    expect(onTop).toBe(true);
    // The service worker's "Ready" that comes later does not bring the dismissed note back.
    await serviceWorkerControls(page);
    await expect(note.isHidden()).resolves.toBe(true);
    await save.click();
    await today.getByText('Pizza out', { exact: true }).waitFor();
    await site.screenshot(page, 'offline-note-dismissed-plan-phone');
  });
});
