/**
 * @site/game-engine — the tower game as a pure reducer.
 *
 *   let state = createGame({ seed: 42 });
 *   const result = apply(state, { type: 'move', x: 3, y: 2 });
 *   if (result.ok) { state = result.state; animate(result.events); } else { alert(result.message); }
 *
 * The state is plain JSON; all randomness comes from `state.rng`. Rules for players: ../RULES.md.
 */
export { apply, malformedReason } from './apply.ts';
export { createGame } from './create.ts';
export type { GameOptions } from './create.ts';
export { replay, hashState, canonicalJson } from './replay.ts';
export type { ReplayResult } from './replay.ts';
export {
  activeSurvivor,
  canSee,
  findWeapon,
  interactTargets,
  legalActions,
  floorTiles,
  moveOptions,
  moveTargets,
  targetSquares,
  targetsAt,
  thingsAt,
  tileAt,
  visibleTiles,
  weaponsOf,
} from './queries.ts';
export { hasActionsLeft } from './turn.ts';
export { MESSAGES } from './messages.ts';
export { INVENTORY_SIZE, SURVIVOR, WEAPON_UPGRADE_XP } from './catalogue.ts';
export { checkRuleValue, deckText, DEFAULT_RULES, ENEMY_KINDS, parseRuleSetting, RULE_PATHS, rulesOf, rulesWith } from './rules.ts';
export type { RuleOverrides, RulePath, RuleSetting, RulesVerdict, RuleValue } from './rules.ts';
export { FLOORS, floor1, floor2 } from './floors/index.ts';
export { seedRng, Rng } from './rng.ts';
export type { RngState } from './rng.ts';
export type * from './types.ts';
export { replayGameOptions, toReplayFile, verifyReplayFile } from './replay-file.ts';
export type { ReplayFile, ReplayVerdict } from './replay-file.ts';
export { replayFragment, parseReplayFragment } from './replay-link.ts';
export type { ReplayLinkGame } from './replay-link.ts';
export { dailyDate, dailyScore, dailySeed, isDailyDate, shiftDailyDate, verifyDailyGame } from './daily.ts';
export type { DailyScore, DailyVerdict } from './daily.ts';
