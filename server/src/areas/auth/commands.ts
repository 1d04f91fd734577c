import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { createResetLink } from './reset-links.ts';
import { siteUrl } from '../../http/site-url.ts';
import { issueToken } from './api-tokens.service.ts';
import { createTokenInput, adminMessages } from '@site/contracts';
import { findUserByName } from '../../identity/users.repository.ts';

/** A mistake in an account command of `npm run user`: its message is the one line printed. */
export class AccountCommandError extends Error {}

/**
 * The account commands of `npm run user` that the server runs itself while it holds the embedded
 * database (asked over the control socket), and the command line runs directly otherwise: the same
 * code either way. Returns the lines to print; refusals throw AccountCommandError.
 */
export async function accountCommand(deps: AppDeps, command: string, args: string[]): Promise<string[]> {
  try {
    if (command === 'reset-link') {
      const [name] = args;
      if (!name) throw new AccountCommandError('Name the account: npm run user -- reset-link NAME');
      const link = await createResetLink(deps, name);
      return [
        `A one-time link for ${link.name} to set a new password (valid 24 hours; it signs out every device of the account):`,
        `${siteUrl(deps.config)}${link.path}`,
      ];
    }
    if (command === 'token') return await tokenCommand(deps, args);
    throw new AccountCommandError(`Unknown account command ${command}`);
  } catch (error) {
    if (error instanceof AppError) throw new AccountCommandError(error.message);
    throw error;
  }
}

/** token NAME [--label L] [--scope S]...: a new personal API token, printed as the last word of the last line. */
async function tokenCommand(deps: AppDeps, args: string[]): Promise<string[]> {
  const usage = 'Usage: npm run user -- token NAME [--label LABEL] [--scope AREA:read|AREA:write|*:read]...';
  const rest = [...args];
  let label = 'Command line';
  const scopes: string[] = [];
  for (let at = 0; at < rest.length; ) {
    const flag = rest[at];
    if (flag !== '--label' && flag !== '--scope') {
      at++;
      continue;
    }
    const value = rest[at + 1];
    if (value === undefined) throw new AccountCommandError(usage);
    if (flag === '--label') label = value;
    else scopes.push(value);
    rest.splice(at, 2);
  }
  const [name, ...extra] = rest;
  if (!name || extra.length > 0) throw new AccountCommandError(usage);
  const parsed = createTokenInput.safeParse({ label, scopes: scopes.length > 0 ? scopes : null });
  if (!parsed.success) throw new AccountCommandError(parsed.error.issues[0]?.message ?? usage);
  const user = await findUserByName(deps.db, name);
  if (!user) throw new AccountCommandError(adminMessages.unknownUser);
  const made = await issueToken(deps, user.id, parsed.data.label, parsed.data.scopes ?? null);
  return [
    `A personal API token for ${user.name} (label "${made.label}"), acting at the account's level with ${made.scopes ? `the scopes ${made.scopes.join(' ')}` : 'every right'}; it is shown only now.`,
    `Send it as the header Authorization: Bearer TOKEN. Token: ${made.token}`,
  ];
}
