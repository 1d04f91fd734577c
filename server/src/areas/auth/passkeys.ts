import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { authMessages, PASSKEY_CHALLENGE_MINUTES, PASSKEYS_MAX, type PasskeyRow } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as users from '../../identity/users.repository.ts';
import { confirmSession, requireRecentSignIn, type PasswordSession } from './account.service.ts';
import { countSignIn, signInSucceeded, type Client } from './auth.service.ts';
import { limitKey } from '../../identity/limits.ts';

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
/** The WebAuthn library, loaded at the first passkey call rather than when the server starts (about 0.4 s of a start). */
const webauthn = () => import('@simplewebauthn/server');
const challengeExpiry = () => new Date(Date.now() + PASSKEY_CHALLENGE_MINUTES * 60_000);
const transportsOf = (stored: string) => (stored === '' ? [] : (stored.split(',') as AuthenticatorTransportFuture[]));

/** The challenge a browser's answer carries (in its clientDataJSON), or null when it cannot be read. */
function challengeOf(clientDataJSON: unknown): string | null {
  if (typeof clientDataJSON !== 'string') return null;
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
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
  await sweepPasskeyChallenges(deps);
  const row = await deps.db
    .deleteFrom('auth_passkey_challenges')
    .where('challenge', '=', challenge)
    .where((eb) => (userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', userId)))
    .returning('challenge')
    .executeTakeFirst();
  if (!row) throw new AppError('BAD_REQUEST', authMessages.passkeyChallengeGone);
  return row.challenge;
}

/** Sign-in challenges one address may ask for in PASSKEY_CHALLENGE_MINUTES (each is a row until answered or expired). */
const SIGN_IN_CHALLENGES_PER_ADDRESS = 30;

/** Deletes the challenges nobody answered in time (at each sign-in request, and by the hourly sweep). */
export async function sweepPasskeyChallenges(deps: Pick<AppDeps, 'db'>): Promise<void> {
  await deps.db.deleteFrom('auth_passkey_challenges').where('expires_at', '<', new Date()).execute();
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

/**
 * Options for the browser's navigator.credentials.create(): a discoverable credential, none of the
 * member's own again. Needs a recent sign-in (requireRecentSignIn) and room under PASSKEYS_MAX.
 */
export async function registrationOptions(deps: AppDeps, session: PasswordSession, rp: RelyingParty | null): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { id: rpID } = requireRelyingParty(rp);
  await requireRecentSignIn(deps, session);
  const existing = await deps.db.selectFrom('auth_passkeys').select(['credential_id', 'transports']).where('user_id', '=', session.user.id).execute();
  if (existing.length >= PASSKEYS_MAX) throw new AppError('CONFLICT', authMessages.passkeyLimit);
  const options = await (await webauthn()).generateRegistrationOptions({
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
  const party = requireRelyingParty(rp);
  await requireRecentSignIn(deps, session);
  const response = input.response as RegistrationResponseJSON;
  const expectedChallenge = await takeChallenge(deps, challengeOf(response.response?.clientDataJSON), session.user.id);
  let verified;
  try {
    verified = await (await webauthn()).verifyRegistrationResponse({
      response,
      ...expectedFrom(party, expectedChallenge),
      requireUserVerification: false,
    });
  } catch {
    throw new AppError('BAD_REQUEST', authMessages.passkeyFailed);
  }
  if (!verified.verified || !verified.registrationInfo) throw new AppError('BAD_REQUEST', authMessages.passkeyFailed);
  const { credential } = verified.registrationInfo;
  // The member's row is locked while counting, so two ceremonies at once cannot pass PASSKEYS_MAX.
  const row = await deps.db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', session.user.id).forUpdate().execute();
    const taken = await trx.selectFrom('auth_passkeys').select('id').where('credential_id', '=', credential.id).executeTakeFirst();
    if (taken) throw new AppError('CONFLICT', authMessages.passkeyFailed);
    const held = await trx.selectFrom('auth_passkeys').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', session.user.id).executeTakeFirstOrThrow();
    if (Number(held.n) >= PASSKEYS_MAX) throw new AppError('CONFLICT', authMessages.passkeyLimit);
    return trx
      .insertInto('auth_passkeys')
      .values({
        user_id: session.user.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: (credential.transports ?? response.response.transports ?? []).join(','),
        name: input.name,
        last_used_at: null,
      })
      .returning(['id', 'name', 'created_at'])
      .executeTakeFirstOrThrow();
  });
  return { id: row.id, name: row.name, createdAt: row.created_at.toISOString(), lastUsedAt: null };
}

export async function renamePasskey(deps: AppDeps, session: PasswordSession, id: number, name: string): Promise<{ ok: true }> {
  const done = await deps.db.updateTable('auth_passkeys').set({ name }).where('id', '=', id).where('user_id', '=', session.user.id).executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) throw new AppError('NOT_FOUND', authMessages.unknownPasskey);
  return { ok: true };
}

export async function removePasskey(deps: AppDeps, session: PasswordSession, id: number): Promise<{ ok: true }> {
  const gone = await deps.db.deleteFrom('auth_passkeys').where('id', '=', id).where('user_id', '=', session.user.id).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw new AppError('NOT_FOUND', authMessages.unknownPasskey);
  return { ok: true };
}

/**
 * Options for navigator.credentials.get(): no account named, the browser offers the site's passkeys.
 * Each is a stored challenge, so an address may ask for SIGN_IN_CHALLENGES_PER_ADDRESS of them in
 * PASSKEY_CHALLENGE_MINUTES, and the ones nobody answered are deleted.
 */
export async function loginOptions(deps: AppDeps, rp: RelyingParty | null, ip: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { id: rpID } = requireRelyingParty(rp);
  const rule = { key: limitKey('passkey-options', ip), max: SIGN_IN_CHALLENGES_PER_ADDRESS, windowMs: PASSKEY_CHALLENGE_MINUTES * 60_000 };
  if (!(await deps.limits.reserve([rule]))) throw new AppError('TOO_MANY_REQUESTS', authMessages.passkeyRequestsThrottled);
  await sweepPasskeyChallenges(deps);
  const options = await (await webauthn()).generateAuthenticationOptions({ rpID, userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_MINUTES * 60_000 });
  await keepChallenge(deps, options.challenge, null);
  return options;
}

/** A passkey as stored, with its member. */
async function storedPasskey(deps: AppDeps, credentialId: string) {
  return deps.db
    .selectFrom('auth_passkeys')
    .innerJoin('users', 'users.id', 'auth_passkeys.user_id')
    .select(['auth_passkeys.id', 'credential_id', 'public_key', 'counter', 'transports', 'users.id as userId', 'users.name as userName', 'users.level'])
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
}

/** What an answer must have been made for: this challenge, this site's origin and its relying party id. */
const expectedFrom = (party: RelyingParty, expectedChallenge: string) => ({ expectedChallenge, expectedOrigin: party.origin, expectedRPID: party.id });

/** Checks a sign-in answer against its challenge and the stored passkey, and moves the passkey's counter on. */
async function verifyAnswer(deps: AppDeps, party: RelyingParty, response: AuthenticationResponseJSON, stored: NonNullable<Awaited<ReturnType<typeof storedPasskey>>>): Promise<void> {
  const expectedChallenge = await takeChallenge(deps, challengeOf(response.response?.clientDataJSON), null);
  let verified;
  try {
    verified = await (await webauthn()).verifyAuthenticationResponse({
      response,
      ...expectedFrom(party, expectedChallenge),
      credential: {
        id: stored.credential_id,
        publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
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
}

/**
 * Signs in with a passkey. Counted exactly like a password login before anything is checked
 * (countSignIn): per account once the credential names one (an unknown credential counts as an
 * account of its own), and on the address as one more account tried; a success clears the account's
 * counter and gives the address its attempt back. A failure stays counted, so a passkey cannot be
 * used to get round the login limit, nor lock out everyone else's logins at an address.
 */
export async function passkeyLogin(deps: AppDeps, rp: RelyingParty | null, client: Client, input: { response: unknown }): Promise<SessionUser> {
  const party = requireRelyingParty(rp);
  const response = input.response as AuthenticationResponseJSON;
  const stored = await storedPasskey(deps, response.id);
  const attempt = await countSignIn(deps, stored ? users.nameKey(stored.userName) : `passkey:${response.id}`, client);
  if (!stored) {
    await takeChallenge(deps, challengeOf(response.response?.clientDataJSON), null);
    throw new AppError('UNAUTHORIZED', authMessages.passkeyUnknown);
  }
  await verifyAnswer(deps, party, response, stored);
  await signInSucceeded(deps, attempt);
  return { id: stored.userId, name: stored.userName, level: stored.level as SessionUser['level'] };
}

/**
 * Confirms the session (REAUTH_MINUTES) with one of the member's own passkeys, answering a sign-in
 * challenge (auth.passkeyLoginOptions); counted on the account like a sign-in.
 */
export async function confirmPasskey(deps: AppDeps, session: PasswordSession, rp: RelyingParty | null, client: Client, input: { response: unknown }) {
  const party = requireRelyingParty(rp);
  const response = input.response as AuthenticationResponseJSON;
  const stored = await storedPasskey(deps, response.id);
  const attempt = await countSignIn(deps, users.nameKey(session.user.name), client);
  if (!stored || stored.userId !== session.user.id) {
    await takeChallenge(deps, challengeOf(response.response?.clientDataJSON), null);
    throw new AppError('UNAUTHORIZED', authMessages.passkeyUnknown);
  }
  await verifyAnswer(deps, party, response, stored);
  await signInSucceeded(deps, attempt);
  return confirmSession(deps, session);
}
