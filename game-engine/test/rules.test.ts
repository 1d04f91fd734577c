import { describe, expect, it } from 'vitest';
import {
  apply,
  createGame,
  DEFAULT_RULES,
  hashState,
  legalActions,
  parseReplayFragment,
  parseRuleSetting,
  replayFragment,
  RULE_PATHS,
  rulesWith,
  toReplayFile,
  verifyReplayFile,
} from '../src/index.ts';
import type { Action, GameState, Rules } from '../src/index.ts';
import { Rng, seedRng } from '../src/rng.ts';

function variant(overrides: Record<string, unknown>): Rules {
  const verdict = rulesWith(overrides);
  if (!verdict.ok) throw new Error(verdict.message);
  return verdict.rules;
}

/** Plays random legal actions (never 'cycle' or 'drop', which can repeat forever) until `until` holds. */
function playUntil(state: GameState, until: (s: GameState) => boolean, seed: string, limit = 3000): { state: GameState; log: Action[] } {
  const rng = new Rng(seedRng(seed));
  const log: Action[] = [];
  for (let i = 0; i < limit && state.status === 'playing' && !until(state); i++) {
    const options = legalActions(state).filter((a) => a.type !== 'cycle' && a.type !== 'drop');
    const action = options[rng.int(options.length)] ?? { type: 'pass' };
    const result = apply(state, action);
    if (!result.ok) throw new Error(result.message);
    state = result.state;
    log.push(action);
  }
  return { state, log };
}

describe('rules variants', () => {
  it('lists every changeable constant, typed paths from the Rules shape', () => {
    expect(RULE_PATHS).toContain('enemies.drone.hp');
    expect(RULE_PATHS).toContain('enemies.runner.move');
    expect(RULE_PATHS).toContain('enemies.bloater.xp');
    expect(RULE_PATHS).toContain('weapons.revolver.ammo');
    expect(RULE_PATHS).toContain('weapons.burstPistol.range');
    expect(RULE_PATHS).toContain('weapons.punch.attackCost');
    expect(RULE_PATHS).toContain('survivor.hp');
    expect(RULE_PATHS).toContain('survivor.actions');
    expect(RULE_PATHS).toContain('waveDecks.lab');
    expect(RULE_PATHS).toContain('waveDecks.vault');
    // A weapon that never reloads has no ammo to change.
    expect(RULE_PATHS).not.toContain('weapons.punch.ammo');
  });

  it('leaves the normal game as it was: no rules in the state, the same hash', () => {
    const normal = createGame({ seed: 1 });
    expect(normal).not.toHaveProperty('rules');
    expect(hashState(createGame({ seed: 1, rules: DEFAULT_RULES }))).toBe(hashState(normal));
    expect(hashState(normal)).toBe('84eec93f');
    // Overrides that restate the defaults are the normal rules.
    expect(variant({ 'enemies.drone.hp': 1 })).toBe(DEFAULT_RULES);
  });

  it('makes survivors, weapons and enemies with the changed numbers, on every floor and wave', () => {
    const rules = variant({ 'survivor.hp': 9, 'survivor.actions': 4, 'weapons.revolver.ammo': 2, 'weapons.revolver.range': 5, 'enemies.drone.hp': 3, 'enemies.drone.xp': 7 });
    const game = createGame({ seed: 'v', rules });
    expect(game.rules).toBe(rules);
    expect(game.survivors.map((s) => [s.hp, s.hpMax, s.actions])).toEqual([
      [9, 9, 4],
      [9, 9, 4],
    ]);
    const revolver = game.survivors[0]?.inventory[0];
    expect(revolver).toMatchObject({ type: 'revolver', ammo: 2, ammoMax: 2, range: 5 });
    expect(game.enemies.map((e) => [e.kind, e.hp, e.xp])).toEqual([
      ['drone', 3, 7],
      ['drone', 3, 7],
      ['drone', 3, 7],
    ]);
    // Waves spawned later by the enemy phase come from the state's rules too.
    const { state } = playUntil(game, (s) => s.enemies.length > 3, 'waves');
    for (const e of state.enemies.filter((x) => x.kind === 'drone')) expect(e.hpMax).toBe(3);
    expect(hashState(game)).not.toBe(hashState(createGame({ seed: 'v' })));
  });

  it('replaces a floor\'s wave deck, written the short way or as JSON', () => {
    const short = parseRuleSetting('waveDecks.lab=bloater+bloater,runner');
    expect(short).toEqual({ ok: true, path: 'waveDecks.lab', value: [['bloater', 'bloater'], ['runner']] });
    expect(parseRuleSetting('waveDecks.lab=[["drone"]]')).toEqual({ ok: true, path: 'waveDecks.lab', value: [['drone']] });
    const game = createGame({ seed: 'd', rules: variant({ 'waveDecks.lab': [['bloater', 'bloater'], ['runner']] }) });
    expect(game.levels[0]?.waveDeck).toEqual([['bloater', 'bloater'], ['runner']]);
    expect(game.levels[1]?.waveDeck).toEqual(DEFAULT_RULES.waveDecks.vault);
    const { state } = playUntil(game, (s) => s.enemies.length > 3, 'deck');
    expect(state.enemies.slice(3).every((e) => e.kind === 'bloater' || e.kind === 'runner')).toBe(true);
  });

  it('refuses an unknown path with the list of valid ones, and values of the wrong kind', () => {
    const unknown = parseRuleSetting('enemies.dragon.hp=3');
    expect(unknown.ok).toBe(false);
    if (unknown.ok) return;
    expect(unknown.message.split('\n')[0]).toBe('Unknown rule "enemies.dragon.hp". Valid paths:');
    for (const path of RULE_PATHS) expect(unknown.message).toContain(`\n  ${path} (default `);
    expect(unknown.message).toContain('\n  enemies.drone.hp (default 1)');
    expect(unknown.message).toContain('\n  waveDecks.lab (default drone+drone,drone+drone,drone+runner,drone,runner+runner,runner,bloater,bloater)');
    expect(parseRuleSetting('survivor.hp=0')).toEqual({ ok: false, message: 'survivor.hp is a whole number from 1 to 1000, got "0"' });
    expect(parseRuleSetting('enemies.drone.move=1.5')).toEqual({ ok: false, message: 'enemies.drone.move is a whole number from 0 to 1000, got "1.5"' });
    expect(parseRuleSetting('waveDecks.vault=dragon')).toMatchObject({ ok: false, message: expect.stringContaining('waveDecks.vault is a wave deck') });
    expect(parseRuleSetting('enemies')).toEqual({ ok: false, message: '--set needs PATH=VALUE, got "enemies"' });
    expect(rulesWith({ enemies: 3 })).toMatchObject({ ok: false, message: expect.stringContaining('Unknown rule "enemies"') });
  });

  it('carries the variant in replay files and links, which verify only with it', () => {
    const overrides = { 'enemies.runner.hp': 2 };
    const { state, log } = playUntil(createGame({ seed: 'r', rules: variant(overrides) }), (s) => s.round > 4, 'replay');
    const file = toReplayFile('r', log, state, undefined, overrides);
    expect(file.rules).toEqual(overrides);
    expect(verifyReplayFile(JSON.parse(JSON.stringify(file)))).toMatchObject({ ok: true });
    const { rules: _dropped, ...withoutRules } = file;
    expect(verifyReplayFile(withoutRules)).toMatchObject({ ok: false });
    expect(verifyReplayFile({ ...file, rules: { 'enemies.dragon.hp': 2 } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('The replay\'s rules are not valid: Unknown rule "enemies.dragon.hp"'),
    });
    const link = parseReplayFragment(replayFragment({ seed: 'r', actions: log, rules: overrides }));
    expect(link).toEqual({ seed: 'r', actions: log, rules: overrides });
    expect(replayFragment({ seed: 'r', actions: [] })).not.toContain('rules=');
  });
});
