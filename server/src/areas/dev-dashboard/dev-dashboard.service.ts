import {
  CONFIRM_PHRASES,
  confirmMatches,
  DEV_ACTION_LABELS,
  DEV_ACTIONS,
  devMessages,
  type DevAction,
  type DevRun,
  type DevRunStatus,
  type DevStatus,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { DEFAULT_TIMEOUT_SECONDS, devCommandsOf } from './dev-commands.ts';
import * as repo from './dev-dashboard.repository.ts';
import { runnerFor } from './dev-dashboard.runner.ts';
import type { DevRunRecord } from './dev-dashboard.tables.ts';

/** How many runs the audit log on the page shows, and how many of each run's last lines. */
export const AUDIT_ROWS = 50;
export const AUDIT_LINES = 20;

const lastLines = (text: string, n: number) => text.replace(/\n+$/, '').split('\n').slice(-n).join('\n');

export function runOf(row: DevRunRecord, lines?: number): DevRun {
  return {
    id: row.id,
    action: row.action as DevAction,
    who: row.who,
    startedAt: new Date(row.started_at).toISOString(),
    status: row.status as DevRunStatus,
    exitCode: row.exit_code,
    durationMs: row.duration_ms,
    output: lines === undefined ? row.output : lastLines(row.output, lines),
  };
}

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === UNIQUE_VIOLATION;

/** A row left 'running' by a process that died (a reboot, a crash) blocks nothing once its time is up. */
async function clearStaleRun(deps: AppDeps): Promise<DevRunRecord | undefined> {
  const running = await repo.findRunning(deps.db);
  if (!running) return undefined;
  const deadline = new Date(running.started_at).getTime() + (running.timeout_seconds + 60) * 1000;
  if (Date.now() < deadline) return running;
  await repo.finishRun(deps.db, running.id, {
    status: 'interrupted',
    exit_code: null,
    duration_ms: Date.now() - new Date(running.started_at).getTime(),
    output: `${running.output}\n[interrupted: the server running it stopped]\n`,
  });
  return undefined;
}

/**
 * Starts an action: configured by the owner, confirmed with its phrase where it touches production,
 * and only when no other run is going (a unique index in the database, so across processes too).
 * Answers at once with the run; its output and end are read from the run as it goes.
 */
export async function start(deps: AppDeps, user: SessionUser, action: DevAction, confirm: string | undefined): Promise<DevRun> {
  const command = devCommandsOf(deps.config)?.commands[action];
  if (!command) throw new AppError('BAD_REQUEST', devMessages.notConfigured(action));
  const phrase = CONFIRM_PHRASES[action];
  if (phrase !== undefined && !confirmMatches(action, confirm)) throw new AppError('BAD_REQUEST', devMessages.confirm(phrase));
  const timeoutSeconds = command.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const values = { action, user_id: user.id, who: user.name, timeout_seconds: timeoutSeconds };
  let row: DevRunRecord | undefined;
  for (let attempt = 0; attempt < 2 && !row; attempt++) {
    try {
      row = await repo.insertRun(deps.db, values);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const running = await clearStaleRun(deps);
      if (running) throw new AppError('CONFLICT', devMessages.busy(running.action, running.who));
    }
  }
  if (!row) throw new AppError('CONFLICT', devMessages.busy(action, 'someone'));
  await runnerFor(deps).start(row.id, command, timeoutSeconds);
  return runOf(row);
}

export async function status(deps: AppDeps): Promise<DevStatus> {
  const commands = devCommandsOf(deps.config)?.commands ?? {};
  const running = await repo.findRunning(deps.db);
  return {
    actions: DEV_ACTIONS.map((action) => ({
      action,
      label: DEV_ACTION_LABELS[action],
      configured: commands[action] !== undefined,
      confirmPhrase: CONFIRM_PHRASES[action] ?? null,
    })),
    problem: devCommandsOf(deps.config)
      ? null
      : devMessages.noCommands,
    running: running ? runOf(running) : null,
  };
}

export async function runs(deps: AppDeps): Promise<DevRun[]> {
  return (await repo.recentRuns(deps.db, AUDIT_ROWS)).map((row) => runOf(row, AUDIT_LINES));
}

export async function run(deps: AppDeps, id: number): Promise<DevRun> {
  const row = await repo.findRun(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND', devMessages.unknownRun);
  return runOf(row);
}

export const stopRuns = (deps: AppDeps) => runnerFor(deps).stopAll();
