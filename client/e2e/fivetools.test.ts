import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, seriousAxeViolations, useSite, waitForShell, ownerOn } from './harness.ts';
import { repoRoot } from './paths.ts';

const mirrorDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'site-e2e-5etools-')), '5etools');
const fixture = path.join(repoRoot, 'server', 'test', 'fivetools', 'fixture-site');

describeInBrowser('5eTools', () => {
  const site = useSite({ FIVETOOLS_DIR: mirrorDir });
  afterAll(() => fs.rmSync(path.dirname(mirrorDir), { recursive: true, force: true }));

  it('says how to install a missing copy, then shows the installed copy working in its frame', async () => {
    const page = await ownerOn(site, '/personal/5etools');
    await page.getByRole('heading', { name: '5eTools is not installed on this server' }).waitFor();
    await page.getByText('npm run 5etools -- install PATH').waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(page, 'fivetools-missing-desktop');

    // The documented command, run while the server is up: no restart needed.
    execFileSync('npm', ['run', '--silent', '5etools', '--', 'install', fixture], {
      cwd: repoRoot,
      env: { ...process.env, FIVETOOLS_DIR: mirrorDir },
      stdio: 'pipe',
    });

    await page.reload();
    await waitForShell(page);
    const frame = page.frameLocator('iframe[title="5eTools rules reference"]');
    await frame.getByText('Loaded 3 spells').waitFor();
    await frame.getByText('Inline script ran').waitFor();
    await frame.getByText('Fireball (level 3)').waitFor();
    const box = await page.locator('iframe').boundingBox();
    expect(box?.width).toBeGreaterThan(DESKTOP.width - 40);
    expect(box?.height).toBeGreaterThan(DESKTOP.height - 120);
    await site.screenshot(page, 'fivetools-frame-desktop');
    expect(site.pageErrors(page)).toEqual([]);

    await page.setViewportSize(PHONE);
    await page.reload();
    await waitForShell(page);
    await page.frameLocator('iframe').getByText('Loaded 3 spells').waitFor();
    await site.screenshot(page, 'fivetools-frame-phone');

    // The frame's path is for members only.
    const anonymous = await fetch(site.url('/api/5etools/index.html'));
    expect(anonymous.status).toBe(401);
  });
});
