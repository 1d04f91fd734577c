import { it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, seriousAxeViolations, signUpOwner, useSite, waitForShell } from './harness.ts';

describeInBrowser('accessibility: axe-core finds nothing serious', () => {
  const site = useSite();

  for (const viewport of [DESKTOP, PHONE]) {
    const size = viewport === DESKTOP ? 'desktop' : 'phone';
    it(`has no serious or critical violations on /about and /login (${size})`, async () => {
      const page = await site.newPage({ viewport });
      for (const path of ['/about', '/login']) {
        await page.goto(path);
        await waitForShell(page);
        expect(await seriousAxeViolations(page), path).toEqual([]);
      }
      await site.screenshot(page, `login-${size}`);
    });
  }

  it('has no serious or critical violations on /personal', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(page);
    expect(await seriousAxeViolations(page), '/personal').toEqual([]);
    for (const path of ['/personal/settings', '/personal/changelog', '/admin']) {
      await page.goto(path);
      await waitForShell(page);
      await page.locator('main h1').waitFor();
      expect(await seriousAxeViolations(page), path).toEqual([]);
    }
    await site.screenshot(page, 'admin-desktop');
  });
});
