/**
 * A replay as the fragment of a link: `#seed=<seed>&actions=<base64url of the JSON action list>`
 * (and `&names=<comma-separated survivor names>` when the game was started with names). The fragment
 * never reaches the server; the replay page reads it, the sim CLI prints it. A game of a rules variant adds
 * `&rules=<base64url of the JSON overrides>` (path -> value, see rules.ts).
 */
import type { RuleOverrides } from './rules.ts';

export type ReplayLinkGame = { seed: string; actions: readonly unknown[]; survivorNames?: readonly string[]; rules?: RuleOverrides };

export function replayFragment(game: ReplayLinkGame): string {
  const params = new URLSearchParams({ seed: game.seed, actions: toBase64Url(JSON.stringify(game.actions)) });
  if (game.survivorNames?.length) params.set('names', game.survivorNames.join(','));
  if (game.rules && Object.keys(game.rules).length > 0) params.set('rules', toBase64Url(JSON.stringify(game.rules)));
  return `#${params.toString()}`;
}

/** Reads a fragment made by replayFragment; a clear message for anything else. */
export function parseReplayFragment(fragment: string): ReplayLinkGame | { error: string } {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const seed = params.get('seed');
  const encoded = params.get('actions');
  if (!seed) return { error: 'The link has no seed' };
  if (encoded === null) return { error: 'The link has no actions' };
  let actions: unknown;
  try {
    actions = JSON.parse(fromBase64Url(encoded));
  } catch {
    return { error: 'The actions in the link are damaged (not base64url JSON)' };
  }
  if (!Array.isArray(actions)) return { error: 'The actions in the link are not a list' };
  const names = params.get('names');
  const encodedRules = params.get('rules');
  let rules: unknown;
  if (encodedRules !== null) {
    try {
      rules = JSON.parse(fromBase64Url(encodedRules));
    } catch {
      return { error: 'The rules in the link are damaged (not base64url JSON)' };
    }
    if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) return { error: 'The rules in the link are not a list of changes' };
  }
  return { seed, actions, ...(names ? { survivorNames: names.split(',') } : {}), ...(rules ? { rules: rules as RuleOverrides } : {}) };
}

function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(encoded: string): string {
  const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
