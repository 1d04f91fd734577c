import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEV_ACTIONS, type DevAction } from '@site/contracts';
import { ConfigError, type Config } from '../../config.ts';

/** The default and the ceiling of an action's time limit. */
export const DEFAULT_TIMEOUT_SECONDS = 600;
export const MAX_TIMEOUT_SECONDS = 6 * 60 * 60;

const argPart = z.string().min(1, 'an argument may not be empty').refine((s) => !s.includes('\0'), 'an argument may not contain NUL');

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name is letters, digits and _');

const command = z.strictObject({
  argv: z.array(argPart).min(1, 'argv must name a program'),
  cwd: z.string().min(1).refine((p) => path.isAbsolute(p), 'cwd must be an absolute path').optional(),
  timeoutSeconds: z.number().int().min(1).max(MAX_TIMEOUT_SECONDS).optional(),
  /** Variables set for the command, with their values. */
  env: z.record(envName, argPart).optional(),
  /** Variables of the server's own environment passed on to the command, by name. */
  passEnv: z.array(envName).optional(),
});
export type DevCommand = z.infer<typeof command>;

/** What every command gets from the server's environment: enough to find programs and speak the locale. */
export const BASE_ENV = ['PATH', 'HOME', 'LANG'] as const;

/**
 * The environment of a command: PATH, HOME and LANG from the server's, the variables the commands
 * file passes on by name (`passEnv`) and those it sets (`env`), nothing else. The server's own
 * settings (DATABASE_URL and its password, every other variable) never reach the owner's programs.
 */
export function commandEnvironment(cmd: Pick<DevCommand, 'env' | 'passEnv'>, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...(cmd.passEnv ?? [])]) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...cmd.env };
}

const file = z.strictObject(Object.fromEntries(DEV_ACTIONS.map((a) => [a, command.optional()])) as Record<DevAction, z.ZodOptional<typeof command>>);

export type DevCommands = { file: string; commands: Partial<Record<DevAction, DevCommand>> };

export class DevCommandsError extends Error {}

const readFor = new WeakMap<object, DevCommands | null>();

/**
 * The owner's commands for this configuration: DEV_COMMANDS_FILE read and checked once (the area's
 * `checkConfig` does it at start, so a bad file stops the start with a ConfigError); null when unset.
 */
export function devCommandsOf(config: Pick<Config, 'devCommandsFile'>): DevCommands | null {
  if (readFor.has(config)) return readFor.get(config)!;
  let commands: DevCommands | null = null;
  if (config.devCommandsFile !== null) {
    try {
      commands = readDevCommandsFile(config.devCommandsFile);
    } catch (error) {
      if (error instanceof DevCommandsError) throw new ConfigError(error.message);
      throw error;
    }
  }
  readFor.set(config, commands);
  return commands;
}

/**
 * Reads and checks the owner's DEV_COMMANDS_FILE once, at start. A bad file is refused with a message
 * naming the file and the first problem (`dev-pull.argv: argv must name a program`), so it is found
 * when the server starts rather than when a button is pressed. Nothing here ever comes from a request.
 */
export function readDevCommandsFile(filePath: string): DevCommands {
  let raw: string;
  try {
    raw = fs.readFileSync(filePath, 'utf8');
  } catch (error) {
    throw new DevCommandsError(`DEV_COMMANDS_FILE ${filePath} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new DevCommandsError(`DEV_COMMANDS_FILE ${filePath} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = file.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? '';
    let message = issue?.message ?? 'invalid';
    if (issue?.code === 'unrecognized_keys') message = `unknown key(s) ${issue.keys.join(', ')}; the keys are ${DEV_ACTIONS.join(', ')}`;
    throw new DevCommandsError(`DEV_COMMANDS_FILE ${filePath} is not valid: ${where ? `${where}: ` : ''}${message}`);
  }
  const commands: Partial<Record<DevAction, DevCommand>> = {};
  for (const action of DEV_ACTIONS) {
    const entry = parsed.data[action];
    if (entry) commands[action] = entry;
  }
  return { file: filePath, commands };
}
