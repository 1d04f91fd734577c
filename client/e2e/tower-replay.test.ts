import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { hashState, replay, replayFragment, toReplayFile, type GameState } from '@site/game-engine';
import { playedGame } from '../src/test/tower-game.ts';
import { PHONE, describeInBrowser, expect, logIn, seriousAxeViolations, useSite, waitForShell, ownerOn } from './harness.ts';

const SEED = 'e2e-replay-3';
const PAGE = '/personal/dungeon-crawler/replay';
const actions = playedGame(SEED, 60);
const stateAt = (step: number): GameState => replay({ seed: SEED }, actions.slice(0, step)).state;

const board = (page: Page) => page.getByTestId('replay-board');

/** The page shows step `step`, its playback done: the engine's hash, and every drawn token where the engine has it. */
async function expectStep(page: Page, step: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const el = document.querySelector('[data-testid="replay-board"]');
      return el?.getAttribute('data-step') === String(n) && el.getAttribute('data-busy') === 'false';
    },
    step,
    { timeout: 15_000 },
  );
  const expected = stateAt(step);
  await expect(board(page).getAttribute('data-state-hash')).resolves.toBe(hashState(expected));
  const drawn = await page.locator('[data-testid="actor-list"] li').evaluateAll((items) =>
    items.map((li) => ({ id: li.getAttribute('data-actor-id'), x: Number(li.getAttribute('data-x')), y: Number(li.getAttribute('data-y')), hp: Number(li.getAttribute('data-hp')) })),
  );
  const engine = [...expected.survivors, ...expected.enemies].map((a) => ({ id: a.id, x: a.x, y: a.y, hp: a.hp }));
  const byId = (a: { id: string | null }, b: { id: string | null }) => String(a.id).localeCompare(String(b.id));
  expect(drawn.sort(byId)).toEqual(engine.sort(byId));
}

describeInBrowser('tower: watching a replay', () => {
  const site = useSite();

  it('opens a replay link on a desktop and steps forward, back and to a round on the engine states', async () => {
    const page = await ownerOn(site, `${PAGE}?speed=20${replayFragment({ seed: SEED, actions })}`);
    await expectStep(page, 0);
    for (let step = 1; step <= 12; step++) {
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await expectStep(page, step);
    }
    await page.getByRole('button', { name: 'Previous' }).click();
    await expectStep(page, 11);
    // Whole rounds only: 2,5 is refused with a message, never read as 25.
    await page.getByRole('textbox', { name: 'Round' }).fill('2,5');
    await page.getByRole('alert').filter({ hasText: 'Round must be a whole number from 1 to' }).waitFor();
    await page.getByRole('textbox', { name: 'Round' }).fill('3');
    await page.getByRole('button', { name: 'Go' }).click();
    const roundThree = Math.max(0, stateIndexOfRound(3));
    await expectStep(page, roundThree);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expectStep(page, roundThree + 1);
    await site.screenshot(page, 'tower-replay-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(site.pageErrors(page)).toEqual([]);
  });

  it('plays a chosen replay file on a phone and pauses', async () => {
    const page = await site.newPage({ viewport: PHONE });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    await page.goto(`${PAGE}?speed=50`);
    await waitForShell(page);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tower-replay-'));
    const file = path.join(dir, 'game.json');
    fs.writeFileSync(file, JSON.stringify(toReplayFile(SEED, actions, stateAt(actions.length)), null, 2));
    try {
      // A pick made while the page is still settling (its route drawn again once the session is read)
      // can land on an input that is then replaced: pick again until the board shows.
      for (let attempt = 1; ; attempt++) {
        await page.getByTestId('replay-file').setInputFiles(file);
        const shown = await board(page).waitFor({ timeout: 5_000 }).then(() => true, () => false);
        if (shown || attempt === 3) break;
      }
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
    await expectStep(page, 0);
    await page.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="replay-board"]')?.getAttribute('data-step')) >= 4, undefined, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = Number(await board(page).getAttribute('data-step'));
    await expectStep(page, paused);
    await site.screenshot(page, 'tower-replay-phone');
    expect(site.pageErrors(page)).toEqual([]);
  });
});

function stateIndexOfRound(round: number): number {
  for (let i = 0; i <= actions.length; i++) if (stateAt(i).round >= round) return i;
  return actions.length;
}
