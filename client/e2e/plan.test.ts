import { it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, useSite } from './harness.ts';
import { open, ownerAndMember, scriptedPage, setLevel } from './members.ts';

/** Calls a tRPC mutation from a signed-in page (setup the page under test does not cover). */
async function mutate(page: Page, path: string, input: unknown): Promise<unknown> {
  return page.evaluate(
    async ([p, body]) => {
      const res = await fetch(`/trpc/${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return (await res.json()) as unknown;
    },
    [path, input] as const,
  );
}

/** The chores as the server holds them (not the page's overlay of waiting changes). */
async function storedChores(page: Page): Promise<{ name: string; assignee: string | null; last: { by: string } | null }[]> {
  return page.evaluate(async () => ((await (await fetch('/trpc/chores.list')).json()) as { result: { data: { name: string; assignee: string | null; last: { by: string } | null }[] } }).result.data);
}

describeInBrowser('the week planned: meal plan, shopping the week, chores and the calendar feed', () => {
  const site = useSite();

  it('plans a dinner from a recipe, shops the week twice (the second adds nothing) and gives a calendar address, at desktop and phone sizes', async () => {
    const { owner, member } = await ownerAndMember(site, 'family');
    await setLevel(owner, 'family', 2);
    await open(owner, '/house');
    await mutate(owner, 'recipes.create', {
      title: 'Lasagne',
      servings: 4,
      steps: [{ instructions: 'Bake.', ingredients: [{ name: 'onion', plural_name: 'onions', quantity: 2, unit_abbreviation: null }, { name: 'olive oil', quantity: 2, unit_abbreviation: 'tbsp' }] }],
    });
    const page = member.page;
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await open(page, '/house/plan');
      const today = page.locator('.plan-today');
      const meal = viewport === DESKTOP ? 'Dinner' : 'Lunch';
      await today.getByRole('button', { name: new RegExp(`^Plan ${meal} on `) }).click();
      await today.getByLabel('Recipe or what is eaten').fill('lasagne');
      await today.getByText('Recipe: Lasagne', { exact: true }).waitFor();
      await today.getByLabel('Who cooks').selectOption('family');
      // A decimal comma is said at once and never saved as "as the recipe".
      await today.getByLabel('Servings').fill('2,5');
      await today.getByText('Servings are a whole number from 1 to 100').first().waitFor();
      await today.getByLabel('Servings').fill('8');
      await today.getByRole('button', { name: 'Save', exact: true }).click();
      // The meal just planned (on the phone, the desktop's Dinner of today shows the same words).
      const planned = today.locator('.plan-meal').filter({ has: page.locator('.plan-meal-name').getByText(meal, { exact: true }) });
      await planned.getByText('Lasagne', { exact: true }).waitFor();
      await planned.getByText('family cooks · 8 servings', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Shop for the week' }).click();
      await page.getByRole('status').getByText(/^Added to House To Get: /).waitFor();
      await page.getByRole('button', { name: 'Shop for the week' }).click();
      await page.getByRole('status').getByText('Everything for this week is already on House To Get.').waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await site.screenshot(page, viewport === DESKTOP ? 'plan-week-desktop' : 'plan-week-phone', { fullPage: viewport === PHONE });
    }
    // Two lasagnes for 8 (4 onions each), one line; oil in one unit.
    await open(page, '/house');
    const toGet = page.getByRole('region', { name: 'House To Get:' });
    await toGet.getByText('onions', { exact: false }).first().waitFor();
    await expect(toGet.locator('tr').filter({ hasText: 'onions' }).count()).resolves.toBe(1);
    await expect(toGet.locator('tr').filter({ hasText: 'onions' }).innerText()).resolves.toMatch(/^8 onions/);

    await page.setViewportSize(DESKTOP);
    await open(page, '/personal/account');
    const card = page.getByRole('region', { name: 'Calendar feed' });
    await card.getByRole('button', { name: 'Make my address' }).click();
    const address = (await card.locator('.copy-target').innerText()).replace(/^COPY > /, '');
    expect(address).toMatch(/\/calendar\/cal_[A-Za-z0-9_-]{43}\.ics$/);
    const feed = await page.request.get(address);
    expect([feed.status(), feed.headers()['content-type']]).toEqual([200, 'text/calendar; charset=utf-8']);
    expect(await feed.text()).toContain('SUMMARY:Dinner: Lasagne');
    await site.screenshot(page, 'calendar-feed-desktop');
    await card.getByRole('button', { name: 'Reset address' }).click();
    await card.locator('.copy-target').getByText(/cal_/).waitFor();
    await expect.poll(async () => (await page.request.get(address)).status()).toBe(404);
  });

  it('marks a chore done and the turn passes live on a second member\'s open page; a chore done offline is recorded once', async () => {
    // The site of the test before: its owner, and 'family' at level 2.
    const owner = await site.newPage();
    await logIn(owner, 'owner', 'owner-password');
    await owner.waitForURL('**/personal');
    const member = await scriptedPage(site);
    await logIn(member.page, 'family', 'family-password');
    await member.page.waitForURL('**/personal');
    const page = member.page;
    await open(page, '/house/chores');
    await page.getByLabel('Chore', { exact: true }).fill('Dishes');
    await page.getByLabel('How often').selectOption('days');
    await page.getByLabel('Every how many days').fill('1');
    await page.getByRole('checkbox', { name: 'family' }).check();
    await page.getByRole('checkbox', { name: 'owner' }).check();
    await page.getByRole('button', { name: 'Add chore' }).click();
    const row = (p: Page) => p.locator('.chores-table tr').filter({ hasText: 'Dishes' });
    await row(page).getByRole('cell', { name: 'family', exact: true }).waitFor();
    await page.getByText(/: Dishes$/).waitFor();

    // The owner's page is open on another device: the turn passes there without a reload.
    await open(owner, '/house/chores');
    await row(owner).getByRole('cell', { name: 'family', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Done: Dishes' }).click();
    await row(owner).getByRole('cell', { name: 'owner', exact: true }).waitFor();
    await site.screenshot(owner, 'chores-desktop');
    await owner.setViewportSize(PHONE);
    await site.screenshot(owner, 'chores-phone', { fullPage: true });
    await owner.setViewportSize(DESKTOP);
    expect(await seriousAxeViolations(owner)).toEqual([]);
    await owner.getByRole('button', { name: 'Undo: Dishes' }).click();
    await row(page).getByRole('cell', { name: 'family', exact: true }).waitFor();

    // Offline on the phone: Done waits, is sent once when the network returns.
    const phone = await scriptedPage(site, PHONE);
    await logIn(phone.page, 'family', 'family-password');
    await phone.page.waitForURL('**/personal');
    await open(phone.page, '/house/chores');
    await row(phone.page).getByRole('cell', { name: 'family', exact: true }).waitFor();
    await phone.page.context().setOffline(true);
    // Offline is said once, by the banner (the chip only counts the changes waiting).
    await phone.page.locator('.offline-banner').getByText(/^You are offline/).waitFor();
    await phone.page.getByRole('button', { name: 'Done: Dishes' }).click();
    await phone.page.getByText('1 change waiting', { exact: true }).waitFor();
    await row(phone.page).getByText('Waiting', { exact: true }).waitFor();
    await site.screenshot(phone.page, 'chores-offline-phone', { fullPage: true });
    await phone.page.context().setOffline(false);
    await phone.page.locator('.sync-status').waitFor({ state: 'hidden' });
    await row(owner).getByRole('cell', { name: 'owner', exact: true }).waitFor();
    const chores = await storedChores(owner);
    expect(chores.map((c) => [c.name, c.assignee, c.last?.by])).toEqual([['Dishes', 'owner', 'family']]);
    const points = await owner.evaluate(async () => {
      const month = new Date().toISOString().slice(0, 7);
      return ((await (await fetch(`/trpc/chores.points?input=${encodeURIComponent(JSON.stringify({ month }))}`)).json()) as { result: { data: unknown } }).result.data;
    });
    expect(points).toEqual([{ name: 'family', points: 1 }]);
  });
});
