import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { authMessages, PASSKEY_CHALLENGE_MINUTES, type PasskeyRow } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as users from '../../identity/users.repository.ts';
import { requirePasswordSession, type PasswordSession } from './account.service.ts';
import { accountLimitKey } from './auth.service.ts';
import { limitKey } from './limits.ts';

/** The site as the browser sees it: the RP ID (a host name) and the origin the ceremony must come from. */
export type RelyingParty = { id: string; origin: string };

/**
 * The relying party of a request: PUBLIC_URL when it is set (a site behind a proxy, whose Host header
 * may be the proxy's), else the request's own origin (scheme and Host). Null when neither is known.
 */
export function relyingParty(publicUrl: string | null, requestOrigin: string | null): RelyingParty | null {
  const base = publicUrl ?? requestOrigin;
  if (!base) return null;
  try {
    const url = new URL(base);
    return { id: url.hostname, origin: url.origin };
  } catch {
    return null;
  }
}

function requireRelyingParty(rp: RelyingParty | null): RelyingParty {
  if (!rp) throw new AppError('BAD_REQUEST', authMessages.passkeyUnavailable);
  return rp;
}

const RP_NAME = 'Home site';
const challengeExpiry = () => new Date(Date.now() + PASSKEY_CHALLENGE_MINUTES * 60_000);
const transportsOf = (stored: string) => (stored === '' ? [] : (stored.split(',') as AuthenticatorTransportFuture[]));

/** The challenge a browser's answer carries (in its clientDataJSON), or null when it cannot be read. */
function challengeOf(clientDataJSON: unknown): string | null {
  if (typeof clientDataJSON !== 'string') return null;
  try {
    const data = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown };
    return typeof data.challenge === 'string' ? data.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Takes the challenge a ceremony answers: it must have been issued (to this member, or to nobody for
 * a sign-in) and not expired. It is deleted whatever follows, so an answer cannot be replayed.
 */
async function takeChallenge(deps: AppDeps, challenge: string | null, userId: number | null): Promise<string> {
  if (!challenge) throw new AppError('BAD_REQUEST', authMessages.passkeyChallengeGone);
  await deps.db.deleteFrom('auth_passkey_challenges').where('expires_at', '<', new Date()).execute();
  const row = await deps.db
    .deleteFrom('auth_passkey_challenges')
    .where('challenge', '=', challenge)
    .where((eb) => (userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', userId)))
    .returning('challenge')
    .executeTakeFirst();
  if (!row) throw new AppError('BAD_REQUEST', authMessages.passkeyChallengeGone);
  return row.challenge;
}

async function keepChallenge(deps: AppDeps, challenge: string, userId: number | null): Promise<void> {
  await deps.db.insertInto('auth_passkey_challenges').values({ challenge, user_id: userId, expires_at: challengeExpiry() }).execute();
}

export async function listPasskeys(deps: AppDeps, userId: number): Promise<PasskeyRow[]> {
  const rows = await deps.db
    .selectFrom('auth_passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at.toISOString(), lastUsedAt: r.last_used_at?.toISOString() ?? null }));
}

/** Options for the browser's navigator.credentials.create(): a discoverable credential, none of the member's own again. */
export async function registrationOptions(deps: AppDeps, session: PasswordSession, rp: RelyingParty | null): Promise<PublicKeyCredentialCreationOptionsJSON> {
  requirePasswordSession(session);
  const { id: rpID } = requireRelyingParty(rp);
  const existing = await deps.db.selectFrom('auth_passkeys').select(['credential_id', 'transports']).where('user_id', '=', session.user.id).execute();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: session.user.name,
    userID: new TextEncoder().encode(`user-${session.user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: transportsOf(c.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    timeout: PASSKEY_CHALLENGE_MINUTES * 60_000,
  });
  await keepChallenge(deps, options.challenge, session.user.id);
  return options;
}

/** Checks the browser's new credential against the challenge this member was given, and keeps it under the name. */
export async function addPasskey(
  deps: AppDeps,
  session: PasswordSession,
  rp: RelyingParty | null,
  input: { name: string; response: unknown },
): Promise<PasskeyRow> {
  requirePasswordSession(session);
  const party = requireRelyingParty(rp);
  const response = input.response as RegistrationResponseJSON;
  const expectedChallenge = await takeChallenge(deps, challengeOf(response.response?.clientDataJSON), session.user.id);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: false,
    });
  } catch {
    throw new AppError('BAD_REQUEST', authMessages.passkeyFailed);
  }
  if (!verified.verified || !verified.registrationInfo) throw new AppError('BAD_REQUEST', authMessages.passkeyFailed);
  const { credential } = verified.registrationInfo;
  const taken = await deps.db.selectFrom('auth_passkeys').select('id').where('credential_id', '=', credential.id).executeTakeFirst();
  if (taken) throw new AppError('CONFLICT', authMessages.passkeyFailed);
  const row = await deps.db
    .insertInto('auth_passkeys')
    .values({
      user_id: session.user.id,
      credential_id: credential.id,
      public_key: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: (credential.transports ?? response.response.transports ?? []).join(','),
      name: input.name,
      last_used_at: null,
    })
    .returning(['id', 'name', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, name: row.name, createdAt: row.created_at.toISOString(), lastUsedAt: null };
}

export async function renamePasskey(deps: AppDeps, session: PasswordSession, id: number, name: string): Promise<{ ok: true }> {
  requirePasswordSession(session);
  const done = await deps.db.updateTable('auth_passkeys').set({ name }).where('id', '=', id).where('user_id', '=', session.user.id).executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) throw new AppError('NOT_FOUND', authMessages.unknownPasskey);
  return { ok: true };
}

export async function removePasskey(deps: AppDeps, session: PasswordSession, id: number): Promise<{ ok: true }> {
  requirePasswordSession(session);
  const gone = await deps.db.deleteFrom('auth_passkeys').where('id', '=', id).where('user_id', '=', session.user.id).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw new AppError('NOT_FOUND', authMessages.unknownPasskey);
  return { ok: true };
}

/** Options for navigator.credentials.get(): no account named, the browser offers the site's passkeys. */
export async function loginOptions(deps: AppDeps, rp: RelyingParty | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { id: rpID } = requireRelyingParty(rp);
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_MINUTES * 60_000 });
  await keepChallenge(deps, options.challenge, null);
  return options;
}

/**
 * Signs in with a passkey. Counted like a password login before anything is checked: per address,
 * and per account once the credential names one; a success clears the account's counter and gives
 * the address its attempt back. A failure stays counted, so a passkey cannot be used to get round
 * the login limit.
 */
export async function passkeyLogin(deps: AppDeps, rp: RelyingParty | null, ip: string, input: { response: unknown }): Promise<SessionUser> {
  const party = requireRelyingParty(rp);
  const response = input.response as AuthenticationResponseJSON;
  const { maxFailures: max, windowMs } = deps.config.loginThrottle;
  const ipKey = limitKey('ip', ip);
  if (!(await deps.limits.reserve([{ key: ipKey, max, windowMs }]))) throw new AppError('TOO_MANY_REQUESTS', authMessages.throttled);
  const expectedChallenge = await takeChallenge(deps, challengeOf(response.response?.clientDataJSON), null);
  const stored = await deps.db
    .selectFrom('auth_passkeys')
    .innerJoin('users', 'users.id', 'auth_passkeys.user_id')
    .select(['auth_passkeys.id', 'credential_id', 'public_key', 'counter', 'transports', 'users.id as userId', 'users.name as userName', 'users.level'])
    .where('credential_id', '=', response.id)
    .executeTakeFirst();
  if (!stored) throw new AppError('UNAUTHORIZED', authMessages.passkeyUnknown);
  const accountKey = accountLimitKey(users.nameKey(stored.userName));
  if (!(await deps.limits.reserve([{ key: accountKey, max, windowMs }]))) throw new AppError('TOO_MANY_REQUESTS', authMessages.throttled);
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      credential: {
        id: stored.credential_id,
        publicKey: isoBase64URL.toBuffer(stored.public_key),
        counter: Number(stored.counter),
        transports: transportsOf(stored.transports),
      },
      requireUserVerification: false,
    });
  } catch {
    throw new AppError('UNAUTHORIZED', authMessages.passkeyFailed);
  }
  if (!verified.verified) throw new AppError('UNAUTHORIZED', authMessages.passkeyFailed);
  await deps.db
    .updateTable('auth_passkeys')
    .set({ counter: verified.authenticationInfo.newCounter, last_used_at: new Date() })
    .where('id', '=', stored.id)
    .execute();
  await deps.limits.clear(accountKey);
  await deps.limits.release(ipKey);
  return { id: stored.userId, name: stored.userName, level: stored.level as SessionUser['level'] };
}
