import { it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, seriousAxeViolations, signUp, useSite, waitForShell, ownerOn } from './harness.ts';
import type { Page } from 'playwright-core';

const amount = (page: Page, name: string) => page.getByTestId(`resource-${name}`).locator('.resource-amount').innerText();

describeInBrowser('trade game', () => {
  const site = useSite();

  it('trades on an island, shows the resources change, and accepts another player\'s offer', async () => {
    const page = await ownerOn(site, '/personal/trade-game');
    await expect.poll(() => amount(page, 'Gold')).toBe('100');

    // The owner (account 1) starts on Palm Harbor: buy 5 Wood at 4, sell 2 Stone at 6.
    await expect.poll(() => page.getByLabel('Island').inputValue()).toBe('Palm Harbor');
    await page.getByRole('heading', { name: 'Palm Harbor' }).waitFor();
    // An amount is whole units: 2,5 is refused with a message (never read as 25), and nothing is sent.
    await page.getByLabel('Buy Wood amount').fill('2,5');
    await expect.poll(() => page.getByTestId('trade-error').innerText()).toBe('Buy Wood amount must be a whole number from 0 to 100000, with no decimals');
    await expect(page.getByRole('button', { name: 'Trade', exact: true }).isDisabled()).resolves.toBe(true);
    // A good the island names without a price ("—") takes an amount too, and says at once that it is not traded here.
    await page.getByLabel('Buy Wood amount').fill('');
    await page.getByLabel('Sell Fish amount').fill('3');
    await expect.poll(() => page.getByLabel('Sell Fish amount').inputValue()).toBe('3');
    await expect.poll(() => page.getByTestId('trade-error').innerText()).toBe('Palm Harbor has no price for Fish, so it cannot be sold here');
    await page.setViewportSize(PHONE);
    await site.screenshot(page, 'trade-game-no-price-phone', { fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.getByLabel('Sell Fish amount').fill('');
    await page.getByLabel('Buy Wood amount').fill('5');
    await page.getByLabel('Sell Stone amount').fill('2');
    await expect.poll(() => page.getByTestId('value-buy-Wood').innerText()).toBe('20');
    await expect.poll(() => page.locator('.basket-total').innerText()).toContain('Total: -8 Gold');
    await page.getByRole('button', { name: 'Trade', exact: true }).click();
    await page.getByText('Trade done: -8 Gold').waitFor();
    await expect.poll(() => amount(page, 'Gold')).toBe('92');
    await expect.poll(() => amount(page, 'Wood')).toBe('25');
    await expect.poll(() => amount(page, 'Stone')).toBe('8');
    await site.screenshot(page, 'trade-game-after-trade-desktop', { fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A basket the player cannot pay for changes nothing and says what is short.
    await page.getByLabel('Island').selectOption('Granite Reach');
    await page.getByRole('heading', { name: 'Granite Reach' }).waitFor();
    await page.getByLabel('Buy Iron amount').fill('20');
    await page.getByRole('button', { name: 'Trade', exact: true }).click();
    await expect.poll(() => page.getByTestId('trade-error').innerText()).toContain('Not enough Gold: needs 200, you have 92');
    await expect.poll(() => amount(page, 'Gold')).toBe('92');

    // Another member (on this port the page is for admins; the game's calls are open to members).
    const other = await site.newPage({ viewport: PHONE });
    await signUp(other, 'sailor', 'sailor-password');
    await other.waitForURL('**/preauth');
    await page.goto('/admin');
    await waitForShell(page);
    await page.getByLabel('Level of sailor').selectOption('3');
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await other.goto('/personal/trade-game');
    await waitForShell(other);
    await other.getByRole('tab', { name: 'Player Trades' }).click();
    await other.getByLabel('Give amount').fill('4');
    await other.getByLabel('Give resource').selectOption('Fish');
    await other.getByLabel('For amount').fill('3');
    await other.getByLabel('For resource').selectOption('Wood');
    await other.getByRole('button', { name: 'Make Offer' }).click();
    await other.getByText('Offered 4 Fish for 3 Wood').waitFor();
    await expect.poll(() => amount(other, 'Fish')).toBe('11');
    await site.screenshot(other, 'trade-game-offer-phone', { fullPage: true });

    await page.goto('/personal/trade-game');
    await waitForShell(page);
    await page.getByRole('tab', { name: 'Player Trades' }).click();
    await page.getByRole('button', { name: "Accept sailor's offer of 4 Fish for 3 Wood" }).click();
    await page.getByText('Offer accepted').waitFor();
    await expect.poll(() => amount(page, 'Fish')).toBe('19');
    await expect.poll(() => amount(page, 'Wood')).toBe('22');
    await expect.poll(() => page.getByText('No other player has an open offer.').isVisible()).toBe(true);
    await site.screenshot(page, 'trade-game-offer-accepted-desktop', { fullPage: true });

    // The seller sees the Wood arrive.
    await other.reload();
    await waitForShell(other);
    await expect.poll(() => amount(other, 'Wood')).toBe('23');

    // Reset Data asks first, then starts a fresh game.
    await page.getByRole('button', { name: 'Reset Data' }).click();
    await page.getByRole('button', { name: 'Yes, reset' }).click();
    await expect.poll(() => amount(page, 'Gold')).toBe('100');
    await expect.poll(() => amount(page, 'Fish')).toBe('15');
    // The one refused basket above is a 400 the browser logs; nothing else may fail.
    expect(site.pageErrors(page).filter((e) => !e.includes('status of 400'))).toEqual([]);
  });
});
