import { apply, createGame, replayGameOptions, verifyReplayFile, type GameEvent, type GameState, type ReplayLinkGame } from '@site/game-engine';

/** One step of a replay: the state after the step's action (step 0: the new game) and what that action did. */
export type TapeStep = { state: GameState; events: GameEvent[] };

/** A replay stepped through once with the engine, so next, previous and jumps are lookups. */
export type Tape = ReplayLinkGame & { steps: TapeStep[] };

export type TapeResult = { ok: true; tape: Tape } | { ok: false; message: string };

/** Steps the engine through the action log, keeping every state; a refused action makes the replay unusable. */
export function buildTape(game: ReplayLinkGame): TapeResult {
  const options = replayGameOptions(game);
  if ('error' in options) return { ok: false, message: options.error };
  let state = createGame(options);
  const steps: TapeStep[] = [{ state, events: [] }];
  for (const [index, action] of game.actions.entries()) {
    const result = apply(state, action);
    if (!result.ok) return { ok: false, message: `Action ${index} was rejected on replay: ${result.message}` };
    state = result.state;
    steps.push({ state, events: result.events });
  }
  return { ok: true, tape: { ...game, steps } };
}

/** A replay file's text (the game page's export or `npm run sim -- --replay`), verified, as a tape. */
export function tapeFromFileText(text: string): TapeResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The file is not JSON' };
  }
  const verdict = verifyReplayFile(json);
  if (!verdict.ok) return { ok: false, message: verdict.message };
  const { seed, actions, survivorNames, rules } = verdict.file;
  return buildTape({ seed, actions, ...(survivorNames ? { survivorNames } : {}), ...(rules ? { rules } : {}) });
}

/** The first step at which the game is in round `round` (or the last step when it never gets there). */
export function stepOfRound(tape: Tape, round: number): number {
  const index = tape.steps.findIndex((step) => step.state.round >= round);
  return index === -1 ? tape.steps.length - 1 : index;
}

export function clampStep(tape: Tape, index: number): number {
  return Math.max(0, Math.min(tape.steps.length - 1, Math.trunc(index)));
}
