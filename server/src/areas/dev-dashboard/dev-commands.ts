import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEV_ACTIONS, type DevAction } from '@site/contracts';

/** The default and the ceiling of an action's time limit. */
export const DEFAULT_TIMEOUT_SECONDS = 600;
export const MAX_TIMEOUT_SECONDS = 6 * 60 * 60;

const argPart = z.string().min(1, 'an argument may not be empty').refine((s) => !s.includes('\0'), 'an argument may not contain NUL');

const command = z.strictObject({
  argv: z.array(argPart).min(1, 'argv must name a program'),
  cwd: z.string().min(1).refine((p) => path.isAbsolute(p), 'cwd must be an absolute path').optional(),
  timeoutSeconds: z.number().int().min(1).max(MAX_TIMEOUT_SECONDS).optional(),
});
export type DevCommand = z.infer<typeof command>;

const file = z.strictObject(Object.fromEntries(DEV_ACTIONS.map((a) => [a, command.optional()])) as Record<DevAction, z.ZodOptional<typeof command>>);

export type DevCommands = { file: string; commands: Partial<Record<DevAction, DevCommand>> };

export class DevCommandsError extends Error {}

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
