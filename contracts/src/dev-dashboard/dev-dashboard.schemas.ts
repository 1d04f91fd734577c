import { z } from 'zod';
import { MAX_ROW_ID } from '../row-id.ts';
import { text } from '../text.ts';
import { wholeNumber } from '../whole-number.ts';

/** The four actions, in the order of the buttons; each is a key of the owner's DEV_COMMANDS_FILE. */
export const DEV_ACTIONS = ['dev-pull', 'prod-pull', 'dev-launch', 'reboot'] as const;
export type DevAction = (typeof DEV_ACTIONS)[number];

export const DEV_ACTION_LABELS: Record<DevAction, string> = {
  'dev-pull': 'Dev Pull',
  'prod-pull': 'Prod Pull',
  'dev-launch': 'Dev Launch',
  reboot: 'Reboot',
};

/** Actions that touch production: the person types this phrase (any case) and the server checks it. */
export const CONFIRM_PHRASES: Partial<Record<DevAction, string>> = {
  'prod-pull': 'pull to prod',
  reboot: 'reboot prod',
};

export function confirmMatches(action: DevAction, typed: string | undefined): boolean {
  const phrase = CONFIRM_PHRASES[action];
  if (phrase === undefined) return true;
  return typeof typed === 'string' && typed.trim().toLowerCase() === phrase;
}

/** Where the commands file is explained (the repository's docs; the README only links to it). */
export const DEV_DASHBOARD_DOC = 'docs/dev-dashboard.md';

export const devMessages = {
  confirm: (phrase: string) => `Type '${phrase}' to confirm`,
  busy: (action: string, who: string) => `${action} is already running (started by ${who}); one action runs at a time`,
  notConfigured: (action: string) =>
    `${action} is not configured: name a JSON file in DEV_COMMANDS_FILE with a "${action}" entry ({"argv": [...], "cwd": ..., "timeoutSeconds": ...}); see ${DEV_DASHBOARD_DOC}`,
  noCommands: `No dev commands are configured: set DEV_COMMANDS_FILE to a JSON file naming what each button runs (see ${DEV_DASHBOARD_DOC}).`,
  badFile: (problem: string) => `The dev commands file is not valid: ${problem}`,
  unknownRun: 'No run has that number',
  runId: 'Choose a run by its number',
};

export const runInput = z.object({ confirm: text({ label: 'Confirmation', max: 100, trim: true }).optional() }).optional();
export const runIdInput = z.object({ id: wholeNumber(1, MAX_ROW_ID, devMessages.runId) });

export type DevRunStatus = 'running' | 'succeeded' | 'failed' | 'timed out' | 'could not start' | 'interrupted';

/** One run of an action: the audit row and, while it runs, the job the page polls for output. */
export type DevRun = {
  id: number;
  action: DevAction;
  who: string;
  /** ISO time it started. */
  startedAt: string;
  status: DevRunStatus;
  exitCode: number | null;
  durationMs: number | null;
  /** The end of the output (stdout and stderr as they came), capped to the last lines. */
  output: string;
};

export type DevActionState = { action: DevAction; label: string; configured: boolean; confirmPhrase: string | null };

export type DevStatus = {
  actions: DevActionState[];
  /** Why nothing is configured (no file named, or the named file is bad), with how to fix it. */
  problem: string | null;
  running: DevRun | null;
};
