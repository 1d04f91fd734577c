import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { it } from 'vitest';
import {
  activeSurvivor,
  apply,
  createGame,
  hashState,
  legalActions,
  targetsAt,
  verifyReplayFile,
  weaponsOf,
  type Action,
  type AttackAction,
  type GameEvent,
  type GameState,
} from '@site/game-engine';
import { buildTimeline } from '../src/features/tower/timeline.ts';
import { DESKTOP, PHONE, axeViolations, describeInBrowser, expect, logIn, seriousAxeViolations, signUpOwner, useSite, waitForShell } from './harness.ts';

const SEED = 'e2e-tower-7';
const PAGE = '/personal/dungeon-crawler';

/** The engine's side of the game the browser is playing: the same seed and the same accepted actions. */
class Expected {
  state: GameState;
  actions: Action[] = [];
  lastEvents: GameEvent[] = [];
  constructor(seed: string) {
    this.state = createGame({ seed });
  }
  do(action: Action): void {
    const result = apply(this.state, action);
    if (!result.ok) throw new Error(`The engine refused ${JSON.stringify(action)}: ${result.message}`);
    this.state = result.state;
    this.actions.push(action);
    this.lastEvents = result.events;
  }
}

const board = (page: Page) => page.getByTestId('tower-board');

/** Waits for the playback to end and the page to have taken exactly the expected actions. */
async function settled(page: Page, expected: Expected): Promise<void> {
  await page.waitForFunction(
    (count) => {
      const el = document.querySelector('[data-testid="tower-board"]');
      return el?.getAttribute('data-busy') === 'false' && el.getAttribute('data-actions') === String(count);
    },
    expected.actions.length,
    { timeout: 15_000 },
  );
}

/** The page's engine state hash, and every token drawn on the map, equal the engine's for the same log. */
async function expectBoardMatches(page: Page, expected: Expected): Promise<void> {
  await settled(page, expected);
  const b = board(page);
  await expect(b.getAttribute('data-state-hash')).resolves.toBe(hashState(expected.state));
  await expect(b.getAttribute('data-round')).resolves.toBe(String(expected.state.round));
  const drawn = await page.locator('[data-testid="actor-list"] li').evaluateAll((items) =>
    items.map((li) => ({
      id: li.getAttribute('data-actor-id'),
      x: Number(li.getAttribute('data-x')),
      y: Number(li.getAttribute('data-y')),
      hp: Number(li.getAttribute('data-hp')),
    })),
  );
  const engine = [...expected.state.survivors, ...expected.state.enemies].map((a) => ({ id: a.id, x: a.x, y: a.y, hp: a.hp }));
  const byId = (a: { id: string | null }, b: { id: string | null }) => String(a.id).localeCompare(String(b.id));
  expect(drawn.sort(byId)).toEqual(engine.sort(byId));
}

async function openGamePage(page: Page, query = ''): Promise<void> {
  await page.goto(`${PAGE}${query}`);
  await waitForShell(page);
  await page.locator('.tower-start, [data-testid="tower-board"]').first().waitFor();
}

/** Plays the attack through the keyboard: f, the weapon's number, the cursor to the square, space, the target's number. */
async function attackWithKeys(page: Page, expected: Expected, action: AttackAction, shot: (name: string) => Promise<unknown>): Promise<void> {
  const s = activeSurvivor(expected.state);
  if (!s) throw new Error('no active survivor');
  const weaponIndex = weaponsOf(s).findIndex((w) => w.id === action.weaponId);
  const targetIndex = targetsAt(expected.state, action.weaponId, action.x, action.y).findIndex((t) => t.id === action.targetId);
  expect(weaponIndex).toBeGreaterThanOrEqual(0);
  expect(weaponIndex).toBeLessThan(4);
  await page.keyboard.press('f');
  await page.getByTestId('weapon-cards').waitFor();
  await page.keyboard.press(String(weaponIndex + 1));
  await expect.poll(() => board(page).getAttribute('data-mode')).toBe('aim');
  for (let dx = action.x - s.x; dx !== 0; dx -= Math.sign(dx)) await page.keyboard.press(dx > 0 ? 'd' : 'a');
  for (let dy = action.y - s.y; dy !== 0; dy -= Math.sign(dy)) await page.keyboard.press(dy > 0 ? 's' : 'w');
  await shot('tower-aim-desktop');
  await page.keyboard.press('Space');
  const list = page.getByTestId('target-list');
  await list.waitFor();
  await expect(list.getByRole('meter').count()).resolves.toBeGreaterThan(0);
  await expect(list.getByRole('button', { name: /^Attack / }).count()).resolves.toBeGreaterThan(0);
  await shot('tower-targets-desktop');
  await page.keyboard.press(String(targetIndex + 1));
  expected.do(action);
}

describeInBrowser('tower: the game in the browser', () => {
  const site = useSite();

  it('plays a seeded game with the keyboard, matches the engine, survives a reload and exports a verified replay', async () => {
    const context = await site.newContext(DESKTOP);
    const page = await site.newPage({ context });
    await signUpOwner(page);

    // A new game with a fixed seed, at the real playback speed.
    await openGamePage(page);
    await page.getByLabel(/^Seed/).fill(SEED);
    await page.getByRole('button', { name: 'New Game' }).click();
    const expected = new Expected(SEED);
    await expect(board(page).getAttribute('data-seed')).resolves.toBe(SEED);
    await expect(page.getByTestId('tower-seed').textContent()).resolves.toBe(SEED);
    await expectBoardMatches(page, expected);
    await site.screenshot(page, 'tower-start-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The help note and its Back button.
    await page.getByRole('button', { name: 'How to play' }).click();
    await page.getByRole('heading', { name: 'How to play' }).waitFor();
    // The sticky header does not sit over the note's first line.
    const gap = await page.evaluate(() => {
      const header = document.querySelector('.tower-help-header')?.getBoundingClientRect();
      const first = document.querySelector('.tower-help > p')?.getBoundingClientRect();
      return header && first ? first.top - header.bottom : null;
    });
    expect(gap).not.toBeNull();
    expect(gap).toBeGreaterThanOrEqual(0);
    await site.screenshot(page, 'tower-help-desktop');
    // The help is the page's level-one heading while it shows (axe's page-has-heading-one, a moderate rule).
    await expect(axeViolations(page).then((all) => all.map((v) => v.id))).resolves.not.toContain('page-has-heading-one');
    await page.getByRole('button', { name: 'Back' }).click();
    await board(page).waitFor();

    // w a s d move the active survivor (Ada starts on 2,2 with Bram).
    const ada = activeSurvivor(expected.state);
    if (!ada) throw new Error('no survivor');
    await page.keyboard.press('d');
    expected.do({ type: 'move', x: ada.x + 1, y: ada.y });
    await expectBoardMatches(page, expected);
    await page.keyboard.press('s');
    expected.do({ type: 'move', x: ada.x + 1, y: ada.y + 1 });
    await expectBoardMatches(page, expected);
    // Two steps used one action: 4 moves are left (0 left over + 2 actions x 2).
    await expect(page.getByTestId('move-badge').textContent()).resolves.toBe('4');
    await expect(page.getByTestId('action-dots').getAttribute('aria-label')).resolves.toBe('2 of 3 actions left');

    // The Move panel highlights; Look lists what is on a tile, and the empty message word for word.
    await page.getByRole('button', { name: /^Move/ }).click();
    await expect.poll(() => board(page).getAttribute('data-mode')).toBe('move');
    await site.screenshot(page, 'tower-move-desktop');
    await page.keyboard.press('Escape');
    await page.keyboard.press('c');
    const look = page.getByTestId('look-list');
    await look.waitFor();
    await page.keyboard.press('Space');
    await expect(look.locator('.tower-entry-name').first().textContent()).resolves.toContain('Ada');
    await expect(look.getByRole('meter').count()).resolves.toBe(1);
    await page.keyboard.press('d');
    await page.keyboard.press('Space');
    await expect(look.getByRole('status').textContent()).resolves.toBe('Try looking at something interesting');
    await site.screenshot(page, 'tower-look-desktop');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect.poll(() => board(page).getAttribute('data-mode')).toBe('idle');

    // Interact: Ada stands next to the cryochamber; opening it asks for the sleeper's name.
    await page.keyboard.press('e');
    const interact = page.getByTestId('interact-list');
    await expect(interact.locator('.tower-entry-name').first().textContent()).resolves.toBe('Cryochamber');
    await page.keyboard.press('1');
    const prompt = page.getByRole('dialog', { name: 'Someone is waking up' });
    await prompt.getByRole('textbox').fill('Cleo');
    await site.screenshot(page, 'tower-name-prompt-desktop');
    await prompt.getByRole('textbox').press('Enter');
    const chamber = expected.state.interactibles.find((i) => i.kind === 'cryochamber');
    if (!chamber) throw new Error('no cryochamber');
    expected.do({ type: 'interact', targetId: chamber.id, name: 'Cleo' });
    await expectBoardMatches(page, expected);
    await expect(page.getByTestId('action-dots').getAttribute('aria-label')).resolves.toBe('1 of 3 actions left');

    // Tab cycles to Bram; enter passes everyone: the enemy phase plays at the spec's timings.
    await page.keyboard.press('Tab');
    expected.do({ type: 'cycle', direction: 1 });
    await expectBoardMatches(page, expected);
    await expect(page.getByTestId('survivor-name').textContent()).resolves.toBe('Bram');
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press('Enter');
      expected.do({ type: 'pass' });
      await expectBoardMatches(page, expected);
    }
    const started = Date.now();
    await page.keyboard.press('Enter');
    expected.do({ type: 'pass' });
    const timeline = buildTimeline(expected.lastEvents, expected.state.enemies.length);
    expect(expected.lastEvents.some((e) => e.type === 'spawned')).toBe(true);
    expect(timeline.total).toBeGreaterThanOrEqual(2000);
    await page.waitForFunction(() => document.querySelector('[data-testid="tower-board"]')?.getAttribute('data-busy') === 'true');
    // Input is locked while the enemies move: a move key pressed now changes nothing.
    await page.keyboard.press('d');
    await expect(board(page).getAttribute('data-busy')).resolves.toBe('true');
    await expect(board(page).getAttribute('data-actions')).resolves.toBe(String(expected.actions.length));
    await page.waitForTimeout(900);
    await site.screenshot(page, 'tower-enemy-phase-desktop');
    await expectBoardMatches(page, expected);
    // The playback takes its time (its upper end is not checked: a busy machine may stretch it).
    expect(Date.now() - started).toBeGreaterThanOrEqual(timeline.total * 0.9);

    // A reload offers Continue and continues the same game; this time the playback is sped up.
    await page.goto(`${PAGE}?speed=25`);
    await waitForShell(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectBoardMatches(page, expected);

    // Play on until a survivor can shoot an enemy, then shoot it with the keyboard.
    let attacked = false;
    for (let i = 0; i < 30 && !attacked && expected.state.status === 'playing'; i++) {
      const attack = legalActions(expected.state).find((a): a is AttackAction => a.type === 'attack');
      if (attack) {
        await attackWithKeys(page, expected, attack, (name) => site.screenshot(page, name));
        attacked = true;
      } else {
        await page.keyboard.press('Enter');
        expected.do({ type: 'pass' });
      }
      await expectBoardMatches(page, expected);
    }
    expect(attacked).toBe(true);
    await site.screenshot(page, 'tower-after-attack-desktop');

    // Export: the file the simulator verifies.
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-replay').click();
    const download = await downloading;
    // Saved here: the run's Chromium is shared over a connection, so the download has no local path.
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-replay-')), download.suggestedFilename());
    await download.saveAs(saved);
    const file = JSON.parse(fs.readFileSync(saved, 'utf8')) as unknown;
    fs.rmSync(path.dirname(saved), { recursive: true, force: true });
    const verdict = verifyReplayFile(file);
    expect(verdict.ok ? hashState(verdict.state) : verdict.message).toBe(hashState(expected.state));

    await page.reload();
    await waitForShell(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectBoardMatches(page, expected);
    expect(site.pageErrors(page)).toEqual([]);
  });

  it('keeps the wheel zoom between 0.1 and 5 and fits a phone', async () => {
    const page = await site.newPage({ viewport: PHONE });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    await openGamePage(page, '?speed=50');
    await page.getByLabel(/^Seed/).fill(SEED);
    await page.getByRole('button', { name: 'New Game' }).click();
    await expectBoardMatches(page, new Expected(SEED));
    await site.screenshot(page, 'tower-start-phone');
    const map = page.getByTestId('tower-map');
    const box = await map.boundingBox();
    if (!box) throw new Error('the map has no box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const zoom = async () => Number(await map.getAttribute('data-zoom'));
    for (let i = 0; i < 25; i++) await page.mouse.wheel(0, -400);
    await expect.poll(zoom).toBe(5);
    await site.screenshot(page, 'tower-zoomed-in-phone');
    for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 400);
    await expect.poll(zoom).toBe(0.1);
    // Right-button drag pans without a context menu.
    await page.mouse.down({ button: 'right' });
    await page.mouse.move(box.x + 40, box.y + 40, { steps: 4 });
    await page.mouse.up({ button: 'right' });
    await map.getByRole('button', { name: 'Fit the map' }).or(page.getByRole('button', { name: 'Fit the map' })).click();
    expect(await zoom()).toBeGreaterThanOrEqual(0.1);
    expect(await zoom()).toBeLessThanOrEqual(5);
    // The inventory on a phone.
    await page.getByRole('button', { name: /^Inventory/ }).click();
    await page.getByTestId('item-card').first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Drop' }).waitFor();
    await site.screenshot(page, 'tower-inventory-phone');

    // A lost game (survivors who only pass), continued from the browser's storage: the loss screen.
    const lost = new Expected(SEED);
    while (lost.state.status === 'playing') lost.do({ type: 'pass' });
    await page.evaluate(
      ([seed, actions, hash]) => localStorage.setItem('tower-game', JSON.stringify({ seed, actions, hash, savedAt: '' })),
      [SEED, lost.actions, hashState(lost.state)] as const,
    );
    await page.reload();
    await waitForShell(page);
    // A lost game is not offered as "in progress ... Continue".
    await page.getByText(/Your last game is over: seed .*, lost in round/).waitFor();
    await expect(page.getByText(/in progress/).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'See how it ended' }).click();
    await page.getByRole('dialog', { name: 'Game over' }).waitFor();
    await site.screenshot(page, 'tower-lost-phone');
    expect(site.pageErrors(page)).toEqual([]);
  });
});
