import { it } from 'vitest';
import { PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, useSite, waitForShell } from './harness.ts';
import { ownerWithIndexedPhotos } from './people-photos.ts';

describeInBrowser('people: faces found offline, grouped, named; tags in the viewer; the owner sees the progress', () => {
  const site = useSite({ PEOPLE_INDEXING: 'on' });

  it('groups the faces of three real photos into four people, names one, tags a picture, at desktop and 390 px', async () => {
    const owner = await ownerWithIndexedPhotos(site, 90_000);
    await expect(owner.getByLabel(/Find people in the pictures/).isChecked()).resolves.toBe(true);
    await owner.getByRole('heading', { name: 'People in the pictures' }).scrollIntoViewIfNeeded();
    await site.screenshot(owner, 'people-admin-desktop');

    await owner.goto('/personal/pictures/people');
    await waitForShell(owner);
    const cards = owner.getByTestId('person-card');
    await expect.poll(() => cards.count()).toBe(4);
    await expect.poll(() => cards.getByTestId('person-count').allTextContents()).toEqual(['3 photos', '3 photos', '1 photo', '1 photo']);
    await expect.poll(() => owner.locator('.face-crop').first().evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(/thumb\.webp/);
    await site.screenshot(owner, 'people-desktop');
    await expect(seriousAxeViolations(owner)).resolves.toEqual([]);

    // Naming the first person.
    await cards.first().getByRole('link').click();
    await owner.waitForURL(/\/personal\/pictures\/people\/\d+$/);
    await expect.poll(() => owner.locator('.picture-grid img').count(), { timeout: 30_000 }).toBe(3);
    await owner.getByLabel('Name', { exact: true }).fill('Grandma Zoë');
    await owner.getByRole('button', { name: 'Save name' }).click();
    await owner.getByRole('heading', { name: 'Grandma Zoë' }).waitFor();

    // Her pictures open in the gallery's viewer, which says who is in them and shows the tags.
    await owner.getByRole('button', { name: 'Open The four of us' }).click();
    const viewer = owner.getByTestId('picture-viewer');
    await viewer.getByRole('link', { name: 'Grandma Zoë' }).waitFor();
    await expect.poll(() => viewer.getByTestId('in-picture').locator('.in-picture-people').textContent()).toMatch(/^In this picture: /);
    await expect.poll(() => viewer.getByRole('list', { name: 'Tags' }).locator('li').allTextContents()).toContain('person');
    await viewer.getByLabel('Add a tag').fill('Sofa');
    await viewer.getByRole('button', { name: 'Add', exact: true }).click();
    await viewer.getByRole('button', { name: 'Remove the tag sofa' }).waitFor();
    await site.screenshot(owner, 'people-viewer-desktop');
    await viewer.getByRole('button', { name: 'Remove the tag sofa' }).click();
    await expect.poll(() => viewer.getByRole('button', { name: 'Remove the tag sofa' }).count()).toBe(0);
    await viewer.getByRole('button', { name: 'Close viewer' }).click();

    // At 390 px: the cards, the name, nothing wider than the screen.
    const phone = await site.newPage({ viewport: PHONE });
    await logIn(phone, 'owner', 'owner-password');
    await phone.waitForURL(/\/personal/);
    await phone.goto('/personal/pictures/people');
    await waitForShell(phone);
    await expect.poll(() => phone.getByTestId('person-card').first().locator('strong').textContent()).toBe('Grandma Zoë');
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
    await site.screenshot(phone, 'people-phone');
    await expect(seriousAxeViolations(phone)).resolves.toEqual([]);
    await phone.getByTestId('person-card').first().getByRole('link').click();
    await phone.getByRole('heading', { name: 'Grandma Zoë' }).waitFor();
    await expect.poll(() => phone.locator('.picture-grid img').count(), { timeout: 30_000 }).toBe(3);
    await site.screenshot(phone, 'people-person-phone');

    // Merging the two people seen once (a member decides they are one), then hiding the merged one.
    await owner.goto('/personal/pictures/people');
    await waitForShell(owner);
    await expect.poll(() => cards.count()).toBe(4);
    await cards.nth(2).getByRole('checkbox').check();
    await cards.nth(3).getByRole('checkbox').check();
    await owner.getByRole('button', { name: 'Merge 2 people' }).click();
    // Two women of one photo, merged: one picture (two faces).
    await expect.poll(() => cards.getByTestId('person-count').allTextContents()).toEqual(['3 photos', '3 photos', '1 photo']);
    await cards.nth(2).getByRole('link').click();
    await owner.getByRole('button', { name: 'Hide this person' }).click();
    await owner.getByRole('button', { name: 'Show on the People page' }).waitFor();
    await owner.getByRole('link', { name: 'All people' }).click();
    await expect.poll(() => cards.count()).toBe(2);
    await owner.getByLabel('Show hidden people').check();
    await expect.poll(() => cards.getByTestId('person-count').allTextContents()).toEqual(['3 photos', '3 photos', '1 photo · hidden']);
  }, 240_000);
});
