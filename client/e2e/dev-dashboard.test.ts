import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { PHONE, describeInBrowser, expect, seriousAxeViolations, useSite, ownerOn } from './harness.ts';

const node = process.execPath;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-dash-e2e-'));
const commandsFile = path.join(dir, 'commands.json');
/** Dev pull prints its first line, then waits for this file: the test sees the output while it runs. */
const goAhead = path.join(dir, 'go-ahead');
const devPull = `console.log('Updating 1a2b..3c4d');
const wait = setInterval(() => {
  if (require('fs').existsSync(${JSON.stringify(goAhead)})) { clearInterval(wait); console.log('Fast-forward: 2 files changed'); }
}, 100);`;
fs.writeFileSync(
  commandsFile,
  JSON.stringify({
    'dev-pull': { argv: [node, '-e', devPull] },
    'prod-pull': { argv: [node, '-e', "console.log('pulled prod')"] },
    'dev-launch': { argv: [node, '-e', "console.log('launched')"] },
  }),
);

describeInBrowser('dev dashboard: actions, live output and the audit log', () => {
  const site = useSite({ DEV_COMMANDS_FILE: commandsFile });

  it('runs dev pull showing its output and audit row, and refuses prod pull with a wrong phrase', async () => {
    const page = await ownerOn(site, '/admin/dev-dashboard');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByText('No runs yet.').waitFor();
    // reboot is not in the file: its button says so and cannot be pressed.
    await expect(page.getByRole('button', { name: 'Reboot' }).isDisabled()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Dev Pull' }).click();
    const output = page.getByLabel('Output of dev-pull');
    // The first line shows while the action is still running, the rest when it ends.
    await output.getByText('Updating 1a2b..3c4d').waitFor();
    await expect(page.getByText('dev-pull is running...').isVisible()).resolves.toBe(true);
    await site.screenshot(page, 'dev-dashboard-running-desktop');
    fs.writeFileSync(goAhead, '');
    await page.getByText('dev-pull succeeded, exit code 0').waitFor();
    await expect(output.textContent()).resolves.toContain('Fast-forward: 2 files changed');
    // The row is listed from the start as 'running': wait for the finished one.
    const auditRow = page.getByRole('row', { name: /dev-pull/ }).filter({ has: page.getByRole('cell', { name: 'succeeded', exact: true }) });
    await auditRow.waitFor();
    await expect(auditRow.locator('td').nth(1).textContent()).resolves.toBe('owner');
    await expect(auditRow.locator('td').nth(3).textContent()).resolves.toBe('succeeded');
    await expect(auditRow.locator('td').nth(4).textContent()).resolves.toBe('0');
    await expect(auditRow.locator('td').nth(6).textContent()).resolves.toContain('Fast-forward');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(page, 'dev-dashboard-desktop', { fullPage: true });

    // Prod pull asks for its phrase; a wrong one is refused and nothing runs.
    await page.getByRole('button', { name: 'Prod Pull' }).click();
    const prompt = page.getByRole('dialog', { name: 'Prod Pull?' });
    await prompt.getByLabel("Type 'pull to prod' to confirm").fill('pull to dev');
    await prompt.getByRole('button', { name: 'Run Prod Pull' }).click();
    await expect(prompt.getByRole('alert').textContent()).resolves.toBe("Type 'pull to prod' to confirm");
    await site.screenshot(page, 'dev-dashboard-prompt-desktop');
    await prompt.getByRole('button', { name: 'Cancel' }).click();
    await prompt.waitFor({ state: 'detached' });
    await expect(page.getByRole('row', { name: /prod-pull/ }).count()).resolves.toBe(0);

    // The right phrase, in any case, runs it.
    await page.getByRole('button', { name: 'Prod Pull' }).click();
    await prompt.getByLabel("Type 'pull to prod' to confirm").fill('Pull To Prod');
    await prompt.getByRole('button', { name: 'Run Prod Pull' }).click();
    await page.getByText('prod-pull succeeded, exit code 0').waitFor();
    await page.getByRole('row', { name: /prod-pull/ }).waitFor();

    await page.setViewportSize(PHONE);
    await site.screenshot(page, 'dev-dashboard-phone', { fullPage: true });
    expect(site.pageErrors(page)).toEqual([]);
  });
});
