import type { Locator, Page } from 'playwright-core';
import { it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, useSite, waitForShell } from './harness.ts';
import { ownerWithIndexedPhotos } from './people-photos.ts';

/**
 * Issue 48 in a browser: "Same person?" cards answered with the mouse and the Y / N keys; a
 * face taken out of its person given to someone from the viewer's "This is…" and from the People
 * page's "Faces without a person"; merging from the bottom of the list on a phone. Real photographs
 * (server/test/people/fixtures): a group of four women, and two portraits of its two leftmost.
 */
async function openPeople(page: Page): Promise<void> {
  await page.goto('/personal/pictures/people');
  await waitForShell(page);
}

/** Takes the face of the person of `card` out of the picture `caption` (the person's page, its viewer's "Not this person"). */
async function takeOut(page: Page, card: Locator, caption: string): Promise<void> {
  const before = await card.getByTestId('person-count').textContent();
  await card.getByRole('link').click();
  await page.waitForURL(/\/personal\/pictures\/people\/\d+$/);
  await page.getByRole('button', { name: `Open ${caption}` }).click();
  await page.getByTestId('picture-viewer').getByRole('button', { name: 'Not this person: take this face out' }).click();
  const fewer = `${Number(before?.split(' ')[0]) - 1} photos`;
  await expect.poll(() => page.locator('.person-page p.small').first().textContent()).toMatch(new RegExp(`^${fewer}`));
  // The picture left the person's pictures: the viewer may have moved on or closed.
  const close = page.getByRole('button', { name: 'Close viewer' });
  if ((await close.count()) > 0) await close.click();
}

/** Whether the element is inside the viewport, whole. */
const inView = (locator: Locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
  });

describeInBrowser('people: "Same person?", faces without a person, merging on a phone', () => {
  const site = useSite({ PEOPLE_INDEXING: 'on' });

  it('answers "Same person?" cards by mouse and the Y / N keys; gives faces to people from the viewer and the People page; merges from the bottom on a phone', async () => {
    const owner = await ownerWithIndexedPhotos(site);

    await openPeople(owner);
    const cards = owner.getByTestId('person-card');
    await expect.poll(() => cards.getByTestId('person-count').allTextContents()).toEqual(['3 photos', '3 photos', '1 photo', '1 photo']);
    // Each tile's checkbox names its person: an unnamed one by their photos and the first date.
    await expect(cards.nth(3).getByRole('checkbox').getAttribute('aria-label')).resolves.toBe('Choose the person in 1 photo, first on 12 May 2024');
    await expect(cards.nth(0).getByRole('checkbox').getAttribute('aria-label')).resolves.toBe('Choose the person in 3 photos, first on 12 May 2024');
    // Everyone was put right the first time: nothing to ask.
    await expect(owner.getByTestId('same-person-card').count()).resolves.toBe(0);

    // The first woman's face taken out of the first portrait; the gallery's viewer offers "This is…" for it.
    await takeOut(owner, cards.first(), 'Zoë and Ann');
    await owner.goto('/personal/pictures/month/0');
    await waitForShell(owner);
    await owner.getByRole('button', { name: 'Open Zoë and Ann' }).click();
    const viewer = owner.getByTestId('picture-viewer');
    const whoIs = viewer.getByRole('form', { name: 'Who is this face?' });
    await whoIs.getByLabel('This is…').fill('Zoe again');
    await expect.poll(() => viewer.getByRole('img', { name: 'A face without a person' }).evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(/thumb\.webp/);
    await whoIs.scrollIntoViewIfNeeded();
    await site.screenshot(owner, 'people-this-is-desktop');
    await whoIs.getByRole('button', { name: 'Save' }).click();
    await viewer.getByRole('link', { name: 'Zoe again' }).waitFor();
    await expect(viewer.getByRole('form', { name: 'Who is this face?' }).count()).resolves.toBe(0);
    await viewer.getByRole('button', { name: 'Close viewer' }).click();

    // The second woman's: listed under "Faces without a person" on the People page, given a new name there.
    await openPeople(owner);
    await expect.poll(() => cards.getByTestId('person-count').allTextContents()).toContain('3 photos');
    await takeOut(owner, cards.filter({ has: owner.getByText('3 photos', { exact: true }) }).first(), 'Zoë and Ann');
    await openPeople(owner);
    const without = owner.getByTestId('face-without');
    await expect.poll(() => without.count()).toBe(1);
    await without.getByLabel('This is…').fill('Ann again');
    await without.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => without.count()).toBe(0);
    await expect.poll(() => cards.locator('strong').allTextContents()).toEqual(expect.arrayContaining(['Zoe again', 'Ann again']));

    // Each new person and the one they came out of: "Same person?".
    const asks = owner.getByTestId('same-person-card');
    const zoeCard = asks.filter({ hasText: 'Zoe again' }).first();
    const annCard = asks.filter({ hasText: 'Ann again' }).first();
    await zoeCard.waitFor();
    await annCard.waitFor();
    await expect.poll(() => zoeCard.locator('.face-crop').first().evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(/thumb\.webp/);
    await owner.evaluate(() => window.scrollTo(0, 0));
    await site.screenshot(owner, 'people-same-person-desktop');
    await expect(seriousAxeViolations(owner)).resolves.toEqual([]);

    // At 390 px: each card and its buttons fit the screen.
    const phone = await site.newPage({ viewport: PHONE });
    await logIn(phone, 'owner', 'owner-password');
    await phone.waitForURL(/\/personal/);
    await openPeople(phone);
    const phoneAsks = phone.getByTestId('same-person-card');
    await phoneAsks.filter({ hasText: 'Zoe again' }).first().waitFor();
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
    const firstAsk = phoneAsks.first();
    await firstAsk.scrollIntoViewIfNeeded();
    await expect(inView(firstAsk)).resolves.toBe(true);
    await expect(inView(firstAsk.getByRole('button', { name: 'Yes' }))).resolves.toBe(true);
    await expect(inView(firstAsk.getByRole('button', { name: 'No' }))).resolves.toBe(true);
    await site.screenshot(phone, 'people-same-person-phone');
    await expect(seriousAxeViolations(phone)).resolves.toEqual([]);

    // N on a card in focus: not the same, never asked again.
    const peopleBefore = await cards.count();
    await annCard.getByRole('button', { name: 'No' }).focus();
    await owner.keyboard.press('n');
    await expect.poll(() => asks.filter({ hasText: 'Ann again' }).count()).toBe(0);
    await openPeople(owner);
    await asks.filter({ hasText: 'Zoe again' }).first().waitFor();
    await expect(asks.filter({ hasText: 'Ann again' }).count()).resolves.toBe(0);
    await expect.poll(() => cards.count()).toBe(peopleBefore);

    // Yes with the mouse, on the phone: one person again, named, in all three photos.
    await openPeople(phone);
    await phoneAsks.filter({ hasText: 'Zoe again' }).first().getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => phoneAsks.filter({ hasText: 'Zoe again' }).count()).toBe(0);
    const phoneCards = phone.getByTestId('person-card');
    await expect.poll(() => phoneCards.filter({ hasText: 'Zoe again' }).getByTestId('person-count').allTextContents()).toEqual(['3 photos']);

    // Y with no card in focus answers the first: her face in the group photo given to a new person, then joined again.
    await openPeople(owner);
    await takeOut(owner, cards.filter({ hasText: 'Zoe again' }), 'The four of us');
    await owner.goto('/personal/pictures/month/0');
    await waitForShell(owner);
    await owner.getByRole('button', { name: 'Open The four of us' }).click();
    await viewer.getByRole('form', { name: 'Who is this face?' }).getByLabel('This is…').fill('Zoe twice');
    await viewer.getByRole('form', { name: 'Who is this face?' }).getByRole('button', { name: 'Save' }).click();
    await viewer.getByRole('link', { name: 'Zoe twice' }).waitFor();
    await viewer.getByRole('button', { name: 'Close viewer' }).click();
    await openPeople(owner);
    await expect.poll(() => asks.first().textContent()).toMatch(/Zoe twice/);
    await expect(asks.first().textContent()).resolves.toMatch(/Zoe again/);
    await owner.locator('h1').click();
    await owner.keyboard.press('y');
    await expect.poll(() => asks.filter({ hasText: 'Zoe twice' }).count()).toBe(0);
    await expect.poll(() => cards.filter({ hasText: 'Zoe' }).getByTestId('person-count').allTextContents()).toEqual(['3 photos']);

    // A face given back to someone known, by their name in any case: the combobox offers the names.
    await openPeople(owner);
    await takeOut(owner, cards.filter({ hasText: 'Zoe again' }), 'Ann and Zoë');
    await openPeople(owner);
    await expect.poll(() => without.count()).toBe(1);
    await expect(without.locator('datalist option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).sort())).resolves.toEqual(['Ann again', 'Zoe again']);
    const peopleNow = await cards.count();
    await without.getByLabel('This is…').fill('zoe AGAIN');
    await without.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => without.count()).toBe(0);
    await expect.poll(() => cards.filter({ hasText: 'Zoe again' }).getByTestId('person-count').allTextContents()).toEqual(['3 photos']);
    await expect(cards.count()).resolves.toBe(peopleNow);

    // On a phone, from the bottom of the list: the Merge bar stays in view while choosing.
    await openPeople(phone);
    await expect.poll(() => phoneCards.count()).toBeGreaterThan(3);
    const total = await phoneCards.count();
    const last = phoneCards.last();
    // Longer than the screen: the list scrolls.
    await expect(phone.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).resolves.toBe(true);
    await last.scrollIntoViewIfNeeded();
    await last.getByRole('checkbox').check();
    await phoneCards.nth(total - 2).getByRole('checkbox').check();
    const bar = phone.getByTestId('merge-bar');
    await expect(inView(bar.getByRole('button', { name: 'Merge 2 people' }))).resolves.toBe(true);
    await phone.evaluate(() => window.scrollTo(0, 0));
    await expect(inView(bar.getByRole('button', { name: 'Merge 2 people' }))).resolves.toBe(true);
    await site.screenshot(phone, 'people-merge-bar-phone');
    await bar.getByRole('button', { name: 'Merge 2 people' }).click();
    await expect.poll(() => phoneCards.count()).toBe(total - 1);
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);

    // Search forgives a typo in a name, and says what it searched instead; its box says people and tags are found.
    await owner.goto('/personal/pictures/month/0');
    await waitForShell(owner);
    const box = owner.getByRole('combobox', { name: 'Search pictures' });
    await expect(box.getAttribute('placeholder')).resolves.toBe('Search: a person, a place, a tag, a year, a word');
    await box.fill('Zoee');
    await box.press('Enter');
    await expect.poll(() => owner.getByTestId('search-count').textContent()).toBe('Nothing found for “Zoee”. Did you mean “Zoe again”? 3 found for it');
    await expect.poll(() => owner.getByTestId('search-grid').locator('li').count()).toBe(3);
    await site.screenshot(owner, 'people-search-typo-desktop');
  }, 420_000);

  it('a guest of a view link never sees a name: no one "In this picture", nothing to give a face to', async () => {
    const owner = await site.newPage({ viewport: DESKTOP });
    await logIn(owner, 'owner', 'owner-password');
    await owner.waitForURL(/\/personal/);
    await owner.goto('/personal/pictures/albums');
    await waitForShell(owner);
    await owner.getByLabel('Album name').fill('Us four');
    await owner.getByRole('button', { name: 'New album' }).click();
    await owner.waitForURL(/\/personal\/pictures\/albums\/\d+$/);
    const albumUrl = new URL(owner.url()).pathname;
    await owner.goto('/personal/pictures/month/0');
    await waitForShell(owner);
    await owner.getByRole('button', { name: 'Open The four of us' }).click();
    const viewer = owner.getByTestId('picture-viewer');
    // A member sees her name on the picture.
    await viewer.getByRole('link', { name: 'Zoe again' }).waitFor();
    await viewer.getByRole('button', { name: 'Add to album' }).click();
    await viewer.getByRole('status').getByText('Added to Us four').waitFor();
    await owner.goto(albumUrl);
    await waitForShell(owner);
    await owner.getByRole('button', { name: 'Share' }).click();
    await owner.getByRole('button', { name: 'Create view link' }).click();
    await expect.poll(() => owner.getByLabel('View link').inputValue()).toMatch(/\/shared\/[A-Za-z0-9_-]{22}$/);
    const shared = new URL(await owner.getByLabel('View link').inputValue()).pathname;

    for (const viewport of [PHONE, DESKTOP]) {
      const guest = await site.newPage({ viewport });
      await guest.goto(shared);
      await guest.getByRole('heading', { name: 'Us four', exact: true }).waitFor();
      await guest.getByRole('button', { name: 'Open The four of us' }).click();
      const guestViewer = guest.getByTestId('picture-viewer');
      await guestViewer.getByText('Taken on: May 12, 2024').waitFor();
      await expect(guest.getByTestId('in-picture').count()).resolves.toBe(0);
      await expect(guest.locator('body').innerText()).resolves.not.toMatch(/Zoe again|Someone unnamed|This is…|In this picture/);
      await site.screenshot(guest, viewport === PHONE ? 'people-guest-viewer-phone' : 'people-guest-viewer-desktop');
    }
  }, 180_000);
});
