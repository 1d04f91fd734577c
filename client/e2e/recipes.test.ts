import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, seriousAxeViolations, signUpOwner, useSite, waitForShell } from './harness.ts';

/** A 2x2 PNG, enough for the server to re-encode as an ingredient image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWN4cKDhwYEGBggFAD0OCIEAiheZAAAAAElFTkSuQmCC', 'base64');
const pancakesJsonLd = new URL('../../contracts/src/recipes/fixtures/pancakes.jsonld', import.meta.url);
/** A WordPress recipe page (Yoast @graph, WPRM sections, entities), served on 127.0.0.1 for the link import. */
const yoastPage = new URL('../../server/test/recipes/fixtures/yoast-wprm.html', import.meta.url);

/** Picks an option of one of the settings page's radio groups and waits until it is saved. */
async function choose(page: Page, group: string, option: string) {
  const radio = page.getByRole('radiogroup', { name: group }).getByRole('radio', { name: option, exact: true });
  await radio.click();
  await expect.poll(() => radio.getAttribute('aria-checked')).toBe('true');
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
}

describeInBrowser('recipes: authoring, the three views and settings that work', () => {
  // The recipe site below is on 127.0.0.1, which the address guard opens only with this setting.
  const site = useSite({ DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true' });
  const recipeSite = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(yoastPage)));
  beforeAll(() => new Promise<void>((resolve) => recipeSite.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => recipeSite.close(() => resolve())));

  it('creates a recipe, lists it, opens every view, and the page follows each setting', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(page);

    // Create a recipe in the browser.
    await page.goto('/personal/recipes');
    await waitForShell(page);
    await page.getByRole('link', { name: 'New recipe' }).click();
    await page.getByLabel('Title').fill('Pancakes');
    await page.getByLabel('Author').fill('Gran');
    await page.getByLabel('Servings').fill('2');
    await page.getByLabel('Foreword').fill('Sunday mornings.');
    await page.getByLabel('Step 1 instructions').fill('Whisk the milk and the flour.');
    await page.getByRole('button', { name: 'Add ingredient to step 1' }).click();
    await page.getByLabel('Step 1 ingredient 1 quantity').fill('1000');
    await page.getByLabel('Unit').first().selectOption('ml');
    await page.getByLabel('Step 1 ingredient 1 name').fill('milk');
    await page.getByLabel('Step 1 ingredient 1 image').setInputFiles({ name: 'milk.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.editor-thumb').waitFor();
    await page.getByRole('button', { name: 'Add ingredient to step 1' }).click();
    await page.getByLabel('Step 1 ingredient 2 quantity').fill('1 1/2');
    await page.getByLabel('Unit').nth(1).selectOption('cup');
    await page.getByLabel('Step 1 ingredient 2 name').fill('flour');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 2 instructions').fill('Fry in butter.');
    await page.getByRole('button', { name: 'Add ingredient to step 2' }).click();
    await page.getByLabel('Step 2 ingredient 1 quantity').fill('3');
    await page.getByLabel('Unit').nth(2).selectOption('tsp');
    await page.getByLabel('Step 2 ingredient 1 name').fill('butter');
    await site.screenshot(page, 'recipes-editor-desktop', { fullPage: true });
    expect(await seriousAxeViolations(page), 'new recipe').toEqual([]);
    await page.getByRole('button', { name: 'Save recipe' }).click();

    // The page view: title, foreword, tiles, steps; ingredients on steps with the checkbox.
    await page.waitForURL(/\/personal\/recipes\/page\/\d+$/);
    const recipeId = page.url().split('/').pop() ?? '';
    await page.getByRole('heading', { name: 'Pancakes', level: 1 }).waitFor();
    await page.getByText('Sunday mornings.').waitFor();
    const tiles = page.getByRole('list', { name: 'Ingredients', exact: true });
    await expect(tiles.getAttribute('data-view')).resolves.toBe('tiles-3');
    await expect(tiles.getByRole('listitem').allInnerTexts()).resolves.toEqual(['milk\n1000 ml', 'F\nflour\n1 1/2 cups', 'B\nbutter\n3 tsp']);
    // The uploaded picture is served back as a WebP.
    await expect.poll(() => tiles.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    await expect(page.getByRole('list', { name: 'Ingredients of step 1' }).count()).resolves.toBe(0);
    await page.getByLabel('Show Ingredients on Steps').check();
    await page.getByRole('list', { name: 'Ingredients of step 1' }).waitFor();
    // The servings control scales every quantity.
    await page.getByRole('button', { name: 'More servings' }).click();
    await expect(tiles.getByRole('listitem').nth(1).innerText()).resolves.toContain('2 1/4 cups');
    expect(await seriousAxeViolations(page), 'page view').toEqual([]);
    await site.screenshot(page, 'recipes-page-desktop', { fullPage: true });

    // Add to House To Get: scaled to the 3 servings chosen, butter unticked (at home); a second
    // add merges into the milk line instead of repeating it.
    await page.getByRole('button', { name: 'Add to House To Get' }).click();
    await page.getByRole('checkbox', { name: '4 1/2 tsp butter' }).uncheck();
    await page.getByRole('button', { name: 'Add 2 to House To Get' }).click();
    await page.getByRole('status').getByText('2 new, 0 merged').waitFor();
    await page.getByRole('button', { name: 'Add to House To Get' }).click();
    await page.getByRole('checkbox', { name: '2 1/4 cups flour' }).uncheck();
    await page.getByRole('checkbox', { name: '4 1/2 tsp butter' }).uncheck();
    await page.getByRole('button', { name: 'Add 1 to House To Get' }).click();
    await page.getByRole('status').getByText('0 new, 1 merged').waitFor();
    await page.getByRole('link', { name: 'House To Get' }).click();
    const toGet = page.getByRole('region', { name: 'House To Get:' });
    await toGet.getByRole('cell', { name: '3000 ml milk', exact: true }).waitFor();
    await expect(toGet.getByRole('cell').allInnerTexts()).resolves.toEqual(['3000 ml milk', 'Complete', '2 1/4 cups flour', 'Complete']);
    await page.goBack();
    await page.getByRole('heading', { name: 'Pancakes', level: 1 }).waitFor();

    // The list links it with the default view.
    await page.locator('main').getByRole('link', { name: 'Recipes', exact: true }).click();
    const listed = page.getByRole('link', { name: /^Pancakes - Gran - \d{4}-\d{2}-\d{2}$/ });
    await expect(listed.getAttribute('href')).resolves.toBe(`/personal/recipes/page/${recipeId}`);
    // No match first, so the link has gone and waiting for it waits for the ingredient search.
    await page.getByLabel('Search titles and ingredients').fill('chocolate');
    await page.getByText('No recipe matches.').waitFor();
    await page.getByLabel('Search titles and ingredients').fill('butter');
    await listed.waitFor();
    expect(await seriousAxeViolations(page), 'list').toEqual([]);

    // A schema.org JSON-LD file imports into a recipe.
    await page.getByLabel('Import JSON-LD').setInputFiles({ name: 'pancakes.jsonld', mimeType: 'application/ld+json', buffer: fs.readFileSync(pancakesJsonLd) });
    await page.getByRole('heading', { name: 'Fluffy Pancakes', level: 1 }).waitFor();
    await expect(page.getByRole('list', { name: 'Ingredients', exact: true }).getByRole('listitem').count()).resolves.toBe(8);

    // A recipe page's link imports and opens the new recipe, reading right: entities decoded, sections, yield and times.
    await page.goto('/personal/recipes');
    await waitForShell(page);
    await page.getByLabel('Import from link').fill(`http://127.0.0.1:${(recipeSite.address() as AddressInfo).port}/lemon-drizzle/`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Grandma’s Lemon Drizzle Cake', level: 1 }).waitFor();
    await page.waitForURL(/\/personal\/recipes\/page\/\d+$/);
    await expect(page.locator('.recipe-facts').innerText()).resolves.toMatch(/Serves\s+8[\s\S]*Prep\s+15 min[\s\S]*Cook\s+45 min[\s\S]*Total\s+1 h/);
    await expect(page.locator('.recipe-section').allInnerTexts()).resolves.toEqual(['Cake', 'Drizzle']);
    await expect(page.locator('main').innerText()).resolves.toContain('bake at 350°F and sauté');
    await expect(page.locator('main').innerText()).resolves.not.toMatch(/&[a-z]+;|&#\d+;|<p>/);
    expect(await seriousAxeViolations(page), 'imported page').toEqual([]);
    await site.screenshot(page, 'recipes-imported-desktop', { fullPage: true });

    // The steps view: one step at a time, buttons and arrow keys.
    await page.goto(`/personal/recipes/steps/${recipeId}`);
    await waitForShell(page);
    await page.getByRole('heading', { name: 'Step 1 of 2' }).waitFor();
    await page.getByText('Whisk the milk and the flour.').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('heading', { name: 'Step 2 of 2' }).waitFor();
    await expect(page.getByRole('list', { name: 'Ingredients of step 2' }).innerText()).resolves.toContain('3 tsp');
    await page.getByRole('button', { name: '← Previous' }).click();
    await page.getByRole('heading', { name: 'Step 1 of 2' }).waitFor();
    expect(await seriousAxeViolations(page), 'steps view').toEqual([]);
    await site.screenshot(page, 'recipes-steps-desktop');

    // The printer view: no navbar, no loading cover, a white page.
    await page.goto(`/personal/recipes/printer/${recipeId}`);
    await page.getByRole('heading', { name: 'Pancakes', level: 1 }).waitFor();
    await expect(page.getByTestId('navbar').count()).resolves.toBe(0);
    await expect(page.locator('.loading-cover').count()).resolves.toBe(0);
    await expect(page.evaluate(() => getComputedStyle(document.body).backgroundColor)).resolves.toBe('rgb(255, 255, 255)');
    await expect(page.locator('.printer-ingredients li').allInnerTexts()).resolves.toEqual(['1000 ml milk', '1 1/2 cups flour', '3 tsp butter']);
    await expect(page.locator('.printer-steps li').count()).resolves.toBe(2);
    await site.screenshot(page, 'recipes-printer-desktop');
    expect(await seriousAxeViolations(page), 'printer view').toEqual([]);

    // Settings: each one changes what the page shows, and is saved.
    await page.goto('/personal/recipes/settings');
    await waitForShell(page);
    await choose(page, 'Measurement System', 'Metric');
    await choose(page, 'Ingredient View', 'List, single column');
    await choose(page, 'Decimals', 'Decimals (0.5)');
    await site.screenshot(page, 'recipes-settings-desktop', { fullPage: true });
    await page.goto(`/personal/recipes/page/${recipeId}`);
    await waitForShell(page);
    let list = page.getByRole('list', { name: 'Ingredients', exact: true });
    await expect(list.getAttribute('data-view')).resolves.toBe('list-single');
    await expect(list.getByRole('listitem').allInnerTexts()).resolves.toEqual(['1 l milk', '355 ml flour', '15 ml butter']);

    await page.goto('/personal/recipes/settings');
    await waitForShell(page);
    await choose(page, 'Measurement System', 'American');
    await choose(page, 'Decimals', 'Fractions (1/2)');
    await choose(page, 'Improper fractions', 'Improper fractions (3/2)');
    await choose(page, 'Ingredient View', 'List, fit screen');
    await choose(page, 'Default View', 'Steps');
    await page.goto(`/personal/recipes/page/${recipeId}`);
    await waitForShell(page);
    list = page.getByRole('list', { name: 'Ingredients', exact: true });
    await expect(list.getAttribute('data-view')).resolves.toBe('list-fit');
    await expect(list.getByRole('listitem').allInnerTexts()).resolves.toEqual(['1 qt milk', '3/2 cups flour', '1 tbsp butter']);

    await page.goto('/personal/recipes/settings');
    await waitForShell(page);
    await choose(page, 'Ingredient View', 'Tiles, at least 4 per row');
    await page.goto('/personal/recipes');
    await waitForShell(page);
    await expect(listed.getAttribute('href')).resolves.toBe(`/personal/recipes/steps/${recipeId}`);
    await listed.click();
    await page.getByRole('heading', { name: 'Step 1 of 2' }).waitFor();
    await page.goto(`/personal/recipes/page/${recipeId}`);
    await waitForShell(page);
    await expect(page.getByRole('list', { name: 'Ingredients', exact: true }).getAttribute('data-view')).resolves.toBe('tiles-4');

    // Saved on the server: a fresh page (new context, same account) sees the same settings.
    await page.reload();
    await waitForShell(page);
    await expect(page.getByRole('list', { name: 'Ingredients', exact: true }).getAttribute('data-view')).resolves.toBe('tiles-4');
    expect(site.pageErrors(page)).toEqual([]);
  });

  it('reads on a phone', async () => {
    const page = await site.newPage({ viewport: PHONE });
    await page.goto('/login');
    await waitForShell(page);
    const panel = page.locator('form', { has: page.getByRole('heading', { name: 'Log In' }) });
    await panel.getByLabel('Name').fill('owner');
    await panel.getByLabel('Password').fill('owner-password');
    await panel.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/personal');
    await page.goto('/personal/recipes');
    await waitForShell(page);
    await page.getByRole('link', { name: /^Pancakes - Gran/ }).waitFor();
    await site.screenshot(page, 'recipes-list-phone', { fullPage: true });
    const href = (await page.getByRole('link', { name: /^Pancakes - Gran/ }).getAttribute('href')) ?? '';
    await page.goto(href.replace('/steps/', '/page/'));
    await waitForShell(page);
    await page.getByRole('heading', { name: 'Pancakes', level: 1 }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await site.screenshot(page, 'recipes-page-phone', { fullPage: true });
    await page.goto(href.replace('/page/', '/steps/'));
    await page.getByRole('heading', { name: 'Step 1 of 2' }).waitFor();
    await site.screenshot(page, 'recipes-steps-phone');
    await page.goto(href.replace(/\/(steps|page)\//, '/edit/'));
    await page.getByLabel('Step 1 instructions').waitFor();
    const editorOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(editorOverflow).toBeLessThanOrEqual(0);
    await site.screenshot(page, 'recipes-editor-phone', { fullPage: true });
  });
});
