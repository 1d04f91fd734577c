import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, seriousAxeViolations, signUp, useSite } from './harness.ts';
import { open, ownerAndMember, scriptedPage, setLevel } from './members.ts';

/** Answers the tRPC calls of `procedures` with a 500 (a proxy's error page), until the returned function is called. */
async function failWith500(page: Page, procedures: RegExp): Promise<() => Promise<void>> {
  const pattern = '**/trpc/**';
  const handler = (route: Parameters<Parameters<Page['route']>[1]>[0]) =>
    procedures.test(new URL(route.request().url()).pathname) ? route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Internal Server Error</h1>' }) : route.fallback();
  await page.route(pattern, handler);
  return () => page.unroute(pattern, handler);
}

describeInBrowser('failures are not empty lists', () => {
  const site = useSite();
  let owner: Page;

  it('Todo and House with the server answering 500 say what could not be loaded, with Retry, at 1280 and 390 px', async () => {
    const both = await ownerAndMember(site, 'family');
    owner = both.owner;
    const { page } = both.member;
    await setLevel(owner, 'family', 2);
    await open(page, '/personal/todo');
    const task = page.getByLabel('Task', { exact: true });
    await task.fill('Water the plants');
    await task.press('Control+Enter');
    await page.getByRole('cell', { name: 'Water the plants', exact: true }).waitFor();

    // Todo keeps an offline copy: the page shows it, marked as not refreshed, with Retry.
    const restore = await failWith500(page, /todo\.list|house\.list/);
    await open(page, '/personal/todo');
    await page.getByRole('alert').filter({ hasText: /^Could not refresh your tasks: showing the copy from / }).waitFor();
    await page.getByRole('cell', { name: 'Water the plants', exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(page, 'failure-todo-desktop');

    // House was never read on this device: nothing kept, so it says what could not be loaded, not an empty list.
    await open(page, '/house');
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load the house list.' });
    await failed.waitFor();
    await expect(failed.textContent()).resolves.toContain('The server answered with an error.');
    await expect(page.getByText('Nothing here.').count()).resolves.toBe(0);
    await page.setViewportSize(PHONE);
    await site.screenshot(page, 'failure-house-phone', { fullPage: true });

    // Retry once the server answers again: the list is back.
    await restore();
    await page.getByRole('button', { name: 'Retry' }).first().click();
    await page.getByRole('alert').filter({ hasText: 'Could not load' }).waitFor({ state: 'detached' });
    await page.setViewportSize(DESKTOP);
  });

  it('a page never visited says "You are offline" at once when the site cannot be reached: Todo and the gallery', async () => {
    const { page } = await scriptedPage(site, PHONE);
    await signUp(page, 'friend', 'friend-password');
    await page.waitForURL('**/preauth');
    await setLevel(owner, 'friend', 1);
    // The server stops answering the pages' calls (a phone on a Wi-Fi with no internet): the app's own
    // files still load. The live feed is cut too: its stream opening would say the site is reachable,
    // and the list would be asked again ("Loading tasks...") between two failures.
    await page.route(/\/trpc\/(todo\.list|pictures\.page)|\/healthz|\/events/, (route) => route.abort('internetdisconnected'));
    await page.goto('/personal/todo');
    const offline = page.getByRole('alert').filter({ hasText: 'You are offline: could not load your tasks.' });
    await offline.waitFor({ timeout: 5000 });
    await expect(page.getByText('Loading tasks...').count()).resolves.toBe(0);
    await site.screenshot(page, 'offline-todo-never-visited-phone');

    await page.goto('/personal/pictures');
    await page.getByRole('alert').filter({ hasText: 'You are offline: could not load the pictures.' }).waitFor({ timeout: 5000 });
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    await site.screenshot(page, 'offline-gallery-phone');
  });

  it("a guest's link pages with the server answering 500 say what could not be loaded, with Retry, at 390 px", async () => {
    const guest = await site.newPage({ viewport: PHONE });
    await failWith500(guest, /shares\.(open|uploadInfo)/);
    for (const [path, what] of [['/shared/AAAAAAAAAAAAAAAAAAAAAA', 'this shared album'], ['/upload/AAAAAAAAAAAAAAAAAAAAAA', 'this upload link']] as const) {
      await guest.goto(path);
      const failed = guest.getByRole('alert').filter({ hasText: `Could not load ${what}.` });
      await failed.waitFor();
      await expect(failed.getByRole('button', { name: 'Retry' }).count()).resolves.toBe(1);
    }
  });
});
