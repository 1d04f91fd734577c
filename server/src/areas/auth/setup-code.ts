import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../db/database.ts';
import { proxyTrust } from '../../http/ports.ts';
import { countUsers } from '../../identity/users.repository.ts';

/**
 * Whoever creates the first account owns the site, and the server listens on the whole network by
 * default. So the first account is made the owner's only when it is created from the machine itself
 * (a loopback client address, as TRUST_PROXY resolves it), or with the one-time setup code the server
 * prints in its log at start while no account exists (`npm run user -- setup-code` prints it again).
 *
 * The code lives in the database (one row), so every instance on a PostgreSQL and the command line
 * agree on it; it is deleted when the first account is created. Anyone who can read the database owns
 * the site anyway, so it is kept as it is printed. 10 characters of 32 (50 bits), tried at most
 * SIGNUP_MAX_PER_ADDRESS times an hour per address.
 */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LENGTH = 10;

function newCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The setup code while no account exists (made on first need), or null once one does (the code is then gone). */
export async function setupCode(db: Executor): Promise<string | null> {
  if ((await countUsers(db)) > 0) {
    await db.deleteFrom('auth_setup_code').execute();
    return null;
  }
  await db.insertInto('auth_setup_code').values({ code: newCode() }).onConflict((oc) => oc.column('id').doNothing()).execute();
  const row = await db.selectFrom('auth_setup_code').select('code').executeTakeFirst();
  return row?.code ?? null;
}

/** Typed codes are compared without case, dashes or spaces, in constant time. */
const normalise = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

export function codeMatches(typed: string, expected: string): boolean {
  const a = Buffer.from(normalise(typed));
  const b = Buffer.from(normalise(expected));
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function forgetSetupCode(db: Executor): Promise<void> {
  await db.deleteFrom('auth_setup_code').execute();
}

const loopback = proxyTrust(['loopback']);

/** 127.0.0.0/8 and ::1 (IPv4-mapped forms included): the machine the server runs on. */
export function isLoopback(ip: string): boolean {
  try {
    return loopback(ip, 0);
  } catch {
    return false;
  }
}

/** What the server prints at start while no account exists. */
export function setupCodeNotice(code: string): string {
  return (
    `No account exists yet. The first one becomes the owner: create it at /login from this machine ` +
    `(http://localhost), or from another machine with the setup code ${code} ` +
    '(`npm run user -- setup-code` prints it again).'
  );
}
