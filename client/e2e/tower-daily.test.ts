import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { dailyDate, dailySeed } from '@site/game-engine';
import { passUntilOver } from '../src/test/tower-game.ts';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, signUpOwner, useSite, waitForShell } from './harness.ts';

const PAGE = '/personal/dungeon-crawler';
const board = (page: Page) => page.getByTestId('tower-board');

describeInBrowser("tower: the daily tower and today's table", () => {
  const site = useSite();
  const today = dailyDate(new Date());
  // The engine's pass-only game on today's seed: what the page plays with Enter, and what the server must count.
  const played = passUntilOver(dailySeed(today));
  const expected = { actions: played.actions.length, rounds: played.state.round - 1 };

  it("desktop: plays today's tower, the finished game's log is verified by the server and counted in the table", async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(page);
    await page.goto(`${PAGE}?speed=1000`);
    await waitForShell(page);
    const card = page.getByTestId('daily-card');
    await card.getByText("Nobody has finished today's tower yet.").waitFor();
    await card.getByRole('button', { name: "Play today's tower" }).click();
    await expect(board(page).getAttribute('data-seed')).resolves.toBe(`daily-${today}`);

    // Enter passes: the survivors stand still until the tower takes them.
    for (let done = 0; done < expected.actions; done++) {
      await page.waitForFunction(
        (count) => {
          const el = document.querySelector('[data-testid="tower-board"]');
          return el?.getAttribute('data-busy') === 'false' && el.getAttribute('data-actions') === String(count);
        },
        done,
        { timeout: 15_000 },
      );
      await page.keyboard.press('Enter');
    }
    const end = page.getByTestId('end-screen');
    await end.getByText(`Counted for ${today}: ${expected.rounds} rounds, 1 floor — your best today.`).waitFor();
    await expect(end.getByTestId('daily-table').locator('tbody tr').allTextContents()).resolves.toEqual([`1owner${expected.rounds}1`]);

    // Back on the start screen, today's table has the result.
    await end.getByRole('button', { name: 'New Game' }).click();
    const rows = page.getByTestId('daily-card').getByTestId('daily-table').locator('tbody tr');
    await rows.first().waitFor();
    await expect(rows.allTextContents()).resolves.toEqual([`1owner${expected.rounds}1`]);
    await site.screenshot(page, 'tower-daily-desktop', { fullPage: true });
  });

  it("phone: today's table on the start screen, and today's tower starts at phone width", async () => {
    const page = await site.newPage({ viewport: PHONE });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    await page.goto(PAGE);
    await waitForShell(page);
    const rows = page.getByTestId('daily-card').getByTestId('daily-table').locator('tbody tr');
    await rows.first().waitFor();
    await expect(rows.allTextContents()).resolves.toEqual([`1owner${expected.rounds}1`]);
    // The table fits the phone: no sideways scrolling.
    await expect(page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByTestId('daily-card').scrollIntoViewIfNeeded();
    await site.screenshot(page, 'tower-daily-phone', { fullPage: true });
    await page.getByRole('button', { name: "Play today's tower" }).click();
    await expect(board(page).getAttribute('data-seed')).resolves.toBe(`daily-${today}`);
  });
});
