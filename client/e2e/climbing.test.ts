import { it } from 'vitest';
import { PHONE, describeInBrowser, expect, seriousAxeViolations, useSite } from './harness.ts';
import { open, ownerAndMember, setLevel } from './members.ts';

describeInBrowser('climbing: guest passes', () => {
  const site = useSite({ CLIMBING_PASSES_PER_MONTH: '2' });

  it('family add guests up to the month allowance and remove their own; a friend is refused', async () => {
    const { owner, member } = await ownerAndMember(site, 'family');
    const { page } = member;
    await setLevel(owner, 'family', 1);
    await open(page, '/personal/climbing-passes');
    await page.getByRole('heading', { name: 'Not for your level' }).waitFor();

    await setLevel(owner, 'family', 2);
    await open(page, '/personal/climbing-passes');
    await page.getByText('0 of 2 guest passes used this month.').waitFor();
    const guest = page.getByLabel('Guest', { exact: true });
    for (const name of ['Sam', 'Kim']) {
      await guest.fill(name);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.getByRole('heading', { name }).waitFor();
    }
    await page.getByText('2 of 2 guest passes used this month.').waitFor();
    await guest.fill('Lee');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('All 2 guest passes for this month are used; try again next month').waitFor();
    await expect(page.getByText('Added by family', { exact: false }).count()).resolves.toBe(2);

    await page.getByRole('button', { name: 'Remove the pass for Sam' }).click();
    await page.getByRole('heading', { name: 'Sam' }).waitFor({ state: 'detached' });
    await page.getByText('1 of 2 guest passes used this month.').waitFor();

    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(page, 'climbing-desktop');
    await page.setViewportSize(PHONE);
    await site.screenshot(page, 'climbing-phone', { fullPage: true });
  });
});
