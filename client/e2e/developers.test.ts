import { it } from 'vitest';
import { scopeMessages } from '@site/contracts/scopes';
import { PHONE, describeInBrowser, expect, ownerOn, seriousAxeViolations, useSite, waitForShell } from './harness.ts';

describeInBrowser("the developers' door: the API reference and a scoped token", () => {
  const site = useSite();

  it('tries todo.add and todo.list from /personal/api, then makes a token of todo:read on a phone', async () => {
    const page = await ownerOn(site, '/personal');
    // The hub lists the reference with the other tools.
    await page.getByRole('link', { name: 'API reference' }).first().click();
    await page.waitForURL('**/personal/api');
    await waitForShell(page);
    await page.getByRole('heading', { name: 'todo', exact: true }).waitFor();

    await page.getByLabel('Find a call').fill('todo.add');
    const add = page.locator('details', { has: page.locator('summary', { hasText: 'todo.add' }) });
    await add.locator('summary').click();
    await expect(add.getByText('todo:write').first().isVisible()).resolves.toBe(true);
    // What it answers, from the document: the JSON Schema of its data, with the task's statuses.
    await expect(add.locator('pre', { hasText: '"Abandoned"' }).textContent()).resolves.toMatch(/"task": \{\s*"type": "string"\s*\}.*"additionalProperties": false/s);
    await add.getByLabel('Input (JSON)').fill('{ "task": "From the reference" }');
    await add.getByRole('button', { name: 'Send POST' }).click();
    const answer = add.getByRole('status', { name: 'Answer of todo.add' });
    await answer.waitFor();
    await expect(answer.textContent()).resolves.toMatch(/Status 200.*"task": "From the reference"/s);
    // The examples carry the input as typed.
    await expect(add.locator('pre', { hasText: 'curl -s' }).textContent()).resolves.toContain(`-d '{"task":"From the reference"}'`);
    await expect(add.locator('pre', { hasText: 'requests.post' }).textContent()).resolves.toContain('json={');
    await expect(add.locator('pre', { hasText: 'createSiteClient' }).textContent()).resolves.toContain('site.todo.add.mutate({"task":"From the reference"})');
    await site.screenshot(page, 'api-reference-desktop', { fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel('Find a call').fill('todo.list');
    const list = page.locator('details', { has: page.locator('summary', { hasText: 'todo.list' }) });
    await list.locator('summary').click();
    await list.getByRole('button', { name: 'Send GET' }).click();
    await expect(list.getByRole('status', { name: 'Answer of todo.list' }).textContent()).resolves.toContain('From the reference');

    // A token of one area's reads, made on the Account page at 390 px.
    await page.setViewportSize(PHONE);
    await page.goto('/personal/account');
    await waitForShell(page);
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Label').fill('Fridge');
    await form.getByRole('radio', { name: 'Some areas' }).check();
    await form.getByRole('combobox', { name: 'todo' }).selectOption('read');
    await form.getByRole('button', { name: 'Create token' }).click();
    const made = page.getByRole('status', { name: 'New token' });
    await made.waitFor();
    await expect(made.textContent()).resolves.toContain('Fridge (todo:read)');
    await expect(page.getByRole('row', { name: /Fridge/ }).textContent()).resolves.toContain('todo:read');
    await made.scrollIntoViewIfNeeded();
    await site.screenshot(page, 'api-scoped-token-phone');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The token reads the list and is refused a write, naming the scope.
    const token = /site_[A-Za-z0-9_-]{43}/.exec((await made.textContent()) ?? '')?.[0] ?? '';
    const headers = { authorization: `Bearer ${token}` };
    const read = await fetch(site.url('/trpc/todo.list'), { headers });
    expect(read.status).toBe(200);
    const write = await fetch(site.url('/trpc/todo.add'), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"task":"Nope"}' });
    expect([write.status, ((await write.json()) as { error: { message: string } }).error.message]).toEqual([403, scopeMessages.missing('todo:write')]);

    await page.goto('/personal/api');
    await waitForShell(page);
    await page.getByLabel('Find a call').fill('todo');
    await page.locator('details', { has: page.locator('summary', { hasText: 'todo.add' }) }).first().locator('summary').click();
    await site.screenshot(page, 'api-reference-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
