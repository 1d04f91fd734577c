import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { apply, createGame, dailyDate, dailyScore, dailySeed, shiftDailyDate } from '@site/game-engine';
import { passUntilOver, playedGame } from '../src/test/tower-game.ts';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, signUp, useSite, waitForShell, ownerOn } from './harness.ts';
import { setLevel } from './members.ts';

const PAGE = '/personal/dungeon-crawler';
const board = (page: Page) => page.getByTestId('tower-board');

/** Enter passes: the survivors stand still until the tower takes them, `count` actions in all. */
async function passToTheEnd(page: Page, count: number): Promise<void> {
  for (let done = 0; done < count; done++) {
    await page.waitForFunction(
      (n) => {
        const el = document.querySelector('[data-testid="tower-board"]');
        return el?.getAttribute('data-busy') === 'false' && el.getAttribute('data-actions') === String(n);
      },
      done,
      { timeout: 15_000 },
    );
    await page.keyboard.press('Enter');
  }
}

describeInBrowser("tower: the daily tower and today's table", () => {
  const site = useSite();
  const today = dailyDate(new Date());
  // The engine's pass-only game on today's seed: what the page plays with Enter, and what the server must count.
  const played = passUntilOver(dailySeed(today));
  const expected = { actions: played.actions.length, rounds: played.state.round - 1 };

  it("desktop: plays today's tower, the finished game's log is verified by the server and counted in the table", async () => {
    const page = await ownerOn(site, `${PAGE}?speed=1000`);
    const card = page.getByTestId('daily-card');
    await card.getByText("Nobody has finished today's tower yet.").waitFor();
    await card.getByRole('button', { name: "Play today's tower" }).click();
    await expect(board(page).getAttribute('data-seed')).resolves.toBe(`daily-${today}`);

    await passToTheEnd(page, expected.actions);
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

  it("desktop: the leaderboard after two members' verified games; a past daily played unranked stays out of it", async () => {
    const owner = await site.newPage({ viewport: DESKTOP });
    await logIn(owner, 'owner', 'owner-password');
    await owner.waitForURL('**/personal');
    // A second member, raised to the game page's level, sends a real game of today's tower; the server replays it.
    const bea = await site.newPage({ viewport: DESKTOP });
    await signUp(bea, 'bea', 'bea-password');
    await bea.waitForURL('**/preauth');
    await setLevel(owner, 'bea', 3);
    const beaLog = playedGame(dailySeed(today), 5000);
    let beaState = createGame({ seed: dailySeed(today) });
    for (const action of beaLog) {
      const result = apply(beaState, action);
      if (!result.ok) throw new Error(result.message);
      beaState = result.state;
    }
    expect(beaState.status).not.toBe('playing');
    const beaScore = dailyScore(beaState);
    const status = await bea.evaluate(
      async (body) => (await fetch('/trpc/towerDaily.submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
      JSON.stringify({ date: today, actions: beaLog }),
    );
    expect(status).toBe(200);

    // The owner's (from the first test) and bea's results, ranked: most escapes, then floors, then fewest rounds.
    const standings = [
      { member: 'owner', wins: 0, floors: 1, rounds: expected.rounds },
      { member: 'bea', wins: beaScore.won ? 1 : 0, floors: beaScore.floors, rounds: beaScore.rounds },
    ].sort((a, b) => b.wins - a.wins || b.floors - a.floors || a.rounds - b.rounds);
    const tie = standings[0]?.wins === standings[1]?.wins && standings[0]?.floors === standings[1]?.floors && standings[0]?.rounds === standings[1]?.rounds;
    const rows = standings.map((r, i) => `${tie ? 1 : i + 1}${r.member}1${r.wins}${r.floors}${r.rounds}`);
    await owner.goto(PAGE);
    await waitForShell(owner);
    const leaderboard = owner.getByTestId('daily-leaderboard');
    const leaderRows = leaderboard.getByTestId('leaderboard-table').locator('tbody tr');
    await leaderRows.nth(1).waitFor();
    if (tie) expect((await leaderRows.allTextContents()).sort()).toEqual([...rows].sort());
    else await expect(leaderRows.allTextContents()).resolves.toEqual(rows);
    await leaderboard.getByRole('button', { name: 'This month' }).click();
    await leaderboard.getByText(`${today.slice(0, 7)}-01 to`).waitFor();
    await expect(leaderRows.count()).resolves.toBe(2);

    // Three days ago, from the calendar: its verified table (empty), then its tower played unranked to the end.
    const past = shiftDailyDate(today, -3);
    const pastGame = passUntilOver(dailySeed(past));
    await owner.getByTestId('past-dailies').locator(`button[data-date="${past}"]`).click();
    await owner.getByTestId('past-daily').getByText("Nobody finished this day's tower.").waitFor();
    await site.screenshot(owner, 'tower-daily-past-desktop', { fullPage: true });
    await owner.getByRole('button', { name: `Play ${past} unranked` }).click();
    await expect(board(owner).getAttribute('data-seed')).resolves.toBe(`daily-${past}`);
    await passToTheEnd(owner, pastGame.actions.length);
    const end = owner.getByTestId('end-screen');
    await end.getByTestId('daily-unranked').getByText(`The tower of ${past}, played unranked: past dailies do not enter the tables.`).waitFor();
    await expect(end.getByTestId('daily-result').count()).resolves.toBe(0);

    // Nothing changed: the day's table and the leaderboard are as they were.
    await end.getByRole('button', { name: 'New Game' }).click();
    await leaderRows.nth(1).waitFor();
    await expect(leaderRows.count()).resolves.toBe(2);
    await owner.getByTestId('past-dailies').locator(`button[data-date="${past}"]`).click();
    await owner.getByTestId('past-daily').getByText("Nobody finished this day's tower.").waitFor();
    const dayTable = await owner.evaluate(async (date) => {
      const res = await fetch(`/trpc/towerDaily.day?input=${encodeURIComponent(JSON.stringify({ date }))}`);
      return ((await res.json()) as { result: { data: { table: unknown[] } } }).result.data.table;
    }, past);
    expect(dayTable).toEqual([]);
  });
});
