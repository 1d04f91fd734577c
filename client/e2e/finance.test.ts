import { it } from 'vitest';
// The same hand-written PDF the server's finance tests upload.
import { samplePdf } from '../../server/test/finance/fixtures.ts';
import { PHONE, describeInBrowser, expect, seriousAxeViolations, useSite, ownerOn } from './harness.ts';

const receiptPdf = () => samplePdf('Receipt: Food Bank, 25.50 USD');

describeInBrowser('finance: charity entries with documentation', () => {
  const site = useSite();

  it('adds an entry with a PDF, shows it in its year with totals, opens the viewer and switches years', async () => {
    const page = await ownerOn(site, '/admin/finances');
    await page.getByRole('heading', { name: 'Add Charity Entry' }).waitFor();
    const thisYear = new Date().getFullYear();
    const lastYear = thisYear - 1;

    // The shared validation answers first, in the spec's order, and nothing is sent.
    const form = page.locator('form.charity-form');
    await form.getByLabel('Value in USD').fill('ten');
    await form.getByRole('button', { name: 'Add Entry' }).click();
    await expect(form.getByRole('alert').locator('li').allTextContents()).resolves.toEqual([
      'Recipient may not be null',
      'Value must be a numeric',
      'Item may not be null',
    ]);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await form.getByLabel('Recipient').fill('Food Bank');
    // A decimal comma is a decimal: 25,50 is $25.50.
    await form.getByLabel('Value in USD').fill('25,50');
    await form.getByLabel('Item').fill('Cash');
    await form.getByLabel('Date').fill(`${lastYear}-11-20`);
    await form.getByLabel(/Documentation/).setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: receiptPdf() });
    await form.getByRole('button', { name: 'Add Entry' }).click();

    // The page moves to the entry's year and lists it with the year's totals.
    await page.getByRole('heading', { name: `Gifts in ${lastYear}` }).waitFor();
    const row = page.getByRole('row', { name: /Food Bank/ });
    await row.waitFor();
    await expect(row.locator('td').allTextContents()).resolves.toEqual(['Yes', 'Food Bank', '$25.50', 'Cash', `${lastYear}-11-20`, 'View', 'EditDelete']);
    await expect(page.getByTestId('total-charitable').textContent()).resolves.toBe('$25.50');
    await expect(page.getByTestId('total-count').textContent()).resolves.toBe('1');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(page, 'finance-desktop', { fullPage: true });
    // The next entry refused by the checks: "Entry added." goes, the refusal stays alone.
    await page.getByRole('status').getByText('Entry added.', { exact: true }).waitFor();
    await form.getByRole('button', { name: 'Add Entry' }).click();
    await form.getByRole('alert').getByText('Recipient may not be null').waitFor();
    await expect(page.getByText('Entry added.', { exact: true }).count()).resolves.toBe(0);

    // The viewer shows the PDF over the page, served with its type from the bytes; Escape closes it.
    const documentResponse = page.waitForResponse((r) => r.url().includes('/private/finance/') && r.url().includes('/documentation'));
    await row.getByRole('button', { name: 'View documentation for Food Bank' }).click();
    const viewer = page.getByRole('dialog', { name: /Documentation for Food Bank/ });
    await viewer.waitFor();
    expect((await documentResponse).status()).toBe(200);
    const src = await viewer.locator('iframe').getAttribute('src');
    expect(src).toMatch(/^\/private\/finance\/\d+\/documentation/);
    // Asked directly (Chromium's PDF viewer reports its own headers for the frame).
    const direct = await page.request.get(src ?? '');
    expect(direct.headers()['content-type']).toBe('application/pdf');
    expect(direct.headers()['content-security-policy']).toContain("default-src 'none'");
    await site.screenshot(page, 'finance-viewer-desktop');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    // Switching years: this year has nothing yet, last year still has the entry.
    const year = page.getByRole('combobox', { name: 'Year' });
    await year.selectOption(String(thisYear));
    await page.getByText(`No entries in ${thisYear}.`).waitFor();
    await expect(page.getByTestId('total-count').textContent()).resolves.toBe('0');
    await year.selectOption(String(lastYear));
    await page.getByRole('row', { name: /Food Bank/ }).waitFor();

    await page.setViewportSize(PHONE);
    await site.screenshot(page, 'finance-phone', { fullPage: true });
    expect(site.pageErrors(page)).toEqual([]);
  });
});
