import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accessMessages, authMessages, PASSKEYS_MAX, REAUTH_MINUTES } from '@site/contracts';
import { relyingParty } from '../../src/areas/auth/passkeys.ts';
import { sql } from 'kysely';
import { createUser, databases, TEST_PASSWORD, useTestServer } from '../helpers.ts';
import { addPasskey, b64, passkeySignIn, SoftAuthenticator, trpc } from './soft-authenticator.ts';

describe('relying party', () => {
  it('is the request origin, or PUBLIC_URL when set', () => {
    expect(relyingParty(null, 'http://home.test:8080')).toEqual({ id: 'home.test', origin: 'http://home.test:8080' });
    expect(relyingParty('https://home.example.org', 'http://10.0.0.2:3000')).toEqual({ id: 'home.example.org', origin: 'https://home.example.org' });
    expect(relyingParty(null, null)).toBeNull();
  });
});

describe.each(databases)('passkeys (%s)', (kind) => {
  const s = useTestServer(kind);

  async function signedIn(name: string, level: 0 | 1 | 2 | 3 = 1) {
    await createUser(s.deps, name, level);
    const res = await trpc(s.app, 'auth.login', {}, { name, password: TEST_PASSWORD });
    return res.cookie!;
  }

  it('adds a passkey and signs in with it like a password login (session, status)', async () => {
    const cookie = await signedIn('anna');
    const authenticator = new SoftAuthenticator();
    const added = await addPasskey(s.app, cookie, authenticator);
    expect(added.status).toBe(200);
    expect(added.data).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    const listed = await trpc(s.app, 'auth.passkeys', { cookie }, undefined, 'GET');
    expect(listed.data.map((p: { name: string }) => p.name)).toEqual(['Laptop']);

    const options = await trpc(s.app, 'auth.passkeyLoginOptions', {});
    expect(options.data.rpId).toBe('localhost');
    const login = await trpc(s.app, 'auth.passkeyLogin', {}, { response: authenticator.get(options.data) });
    expect([login.status, login.data]).toEqual([200, { user: 'anna', level: 1 }]);
    expect(login.cookie).toBeDefined();
    const status = await trpc(s.app, 'auth.status', { cookie: login.cookie }, undefined, 'GET');
    expect(status.data).toEqual({ user: 'anna', level: 1 });
    const after = await trpc(s.app, 'auth.passkeys', { cookie }, undefined, 'GET');
    expect(after.data[0].lastUsedAt).not.toBeNull();
  });

  it('renames and removes a passkey; a removed passkey no longer signs in', async () => {
    const cookie = await signedIn('ben');
    const authenticator = new SoftAuthenticator();
    const added = await addPasskey(s.app, cookie, authenticator);
    expect((await trpc(s.app, 'auth.renamePasskey', { cookie }, { id: added.data.id, name: 'Phone' })).status).toBe(200);
    expect((await trpc(s.app, 'auth.passkeys', { cookie }, undefined, 'GET')).data[0].name).toBe('Phone');
    expect((await trpc(s.app, 'auth.removePasskey', { cookie }, { id: added.data.id })).status).toBe(200);
    const again = await trpc(s.app, 'auth.removePasskey', { cookie }, { id: added.data.id });
    expect([again.status, again.message]).toEqual([404, authMessages.unknownPasskey]);
    const options = await trpc(s.app, 'auth.passkeyLoginOptions', {});
    const login = await trpc(s.app, 'auth.passkeyLogin', {}, { response: authenticator.get(options.data) });
    expect([login.status, login.message, login.cookie]).toEqual([401, authMessages.passkeyUnknown, undefined]);
  });

  it('refuses a wrong challenge, a replayed one and a wrong origin', async () => {
    const cookie = await signedIn('cleo');
    const authenticator = new SoftAuthenticator();
    await addPasskey(s.app, cookie, authenticator);
    const made = await trpc(s.app, 'auth.passkeyLoginOptions', {});
    const wrong = await trpc(s.app, 'auth.passkeyLogin', {}, { response: authenticator.get({ ...made.data, challenge: b64(randomBytes(32)) }) });
    expect([wrong.status, wrong.message, wrong.cookie]).toEqual([400, authMessages.passkeyChallengeGone, undefined]);
    const answer = authenticator.get(made.data);
    expect((await trpc(s.app, 'auth.passkeyLogin', {}, { response: answer })).status).toBe(200);
    const replay = await trpc(s.app, 'auth.passkeyLogin', {}, { response: answer });
    expect([replay.status, replay.message, replay.cookie]).toEqual([400, authMessages.passkeyChallengeGone, undefined]);

    const other = await trpc(s.app, 'auth.passkeyLoginOptions', {});
    const elsewhere = await trpc(s.app, 'auth.passkeyLogin', { host: '127.0.0.1:8080' }, { response: authenticator.get(other.data) });
    expect([elsewhere.status, elsewhere.message]).toEqual([401, authMessages.passkeyFailed]);

    // A registration challenge is this member's own: another member cannot answer it.
    const dora = await signedIn('dora');
    const annasOptions = await trpc(s.app, 'auth.passkeyRegistrationOptions', { cookie });
    const stolen = await trpc(s.app, 'auth.addPasskey', { cookie: dora }, { name: 'Stolen', response: new SoftAuthenticator().create(annasOptions.data) });
    expect([stolen.status, stolen.message]).toEqual([400, authMessages.passkeyChallengeGone]);
    expect((await trpc(s.app, 'auth.passkeys', { cookie: dora }, undefined, 'GET')).data).toEqual([]);
  });

  it('refuses an API token for adding and removing passkeys, and signed-out callers', async () => {
    const cookie = await signedIn('emil');
    const token = (await trpc(s.app, 'auth.createToken', { cookie }, { label: 'Script' })).data.token as string;
    const added = await addPasskey(s.app, cookie);
    const refusals = [
      await trpc(s.app, 'auth.passkeyRegistrationOptions', { bearer: token }),
      await trpc(s.app, 'auth.addPasskey', { bearer: token }, { name: 'X', response: new SoftAuthenticator().create({ challenge: 'abc', rp: { id: 'localhost' } }) }),
      await trpc(s.app, 'auth.renamePasskey', { bearer: token }, { id: added.data.id, name: 'Y' }),
      await trpc(s.app, 'auth.removePasskey', { bearer: token }, { id: added.data.id }),
    ];
    for (const r of refusals) expect([r.status, r.message]).toEqual([403, accessMessages.browserOnly]);
    expect((await trpc(s.app, 'auth.passkeys', { cookie }, undefined, 'GET')).data).toHaveLength(1);
    expect((await trpc(s.app, 'auth.passkeyRegistrationOptions', {})).status).toBe(401);
  });

  it('a pending member signs in with a passkey to a session that sees /preauth, refused like a password login', async () => {
    const cookie = await signedIn('finn', 0);
    const authenticator = new SoftAuthenticator();
    expect((await addPasskey(s.app, cookie, authenticator)).status).toBe(200);
    const options = await trpc(s.app, 'auth.passkeyLoginOptions', {});
    const login = await trpc(s.app, 'auth.passkeyLogin', {}, { response: authenticator.get(options.data) });
    expect([login.status, login.message]).toEqual([403, authMessages.pending]);
    const status = await trpc(s.app, 'auth.status', { cookie: login.cookie }, undefined, 'GET');
    expect(status.data).toEqual({ user: 'finn', level: 0 });
  });

  it('counts failed passkey sign-ins in the login limit', async () => {
    const cookie = await signedIn('gina');
    const authenticator = new SoftAuthenticator();
    await addPasskey(s.app, cookie, authenticator);
    const max = s.deps.config.loginThrottle.maxFailures;
    for (let i = 0; i < max; i++) {
      const options = await trpc(s.app, 'auth.passkeyLoginOptions', {});
      const bad = await trpc(s.app, 'auth.passkeyLogin', {}, { response: new SoftAuthenticator().get(options.data, authenticator.credentialId) });
      expect(bad.status).toBe(401);
    }
    const options = await trpc(s.app, 'auth.passkeyLoginOptions', {});
    const good = await trpc(s.app, 'auth.passkeyLogin', {}, { response: authenticator.get(options.data) });
    expect([good.status, good.message]).toEqual([429, authMessages.throttled]);
  });
});

describe.each(databases)('passkeys: who may add one, how many, and what a failure costs (%s)', (kind) => {
  const s = useTestServer(kind);
  const signedIn = async (name: string, address = '10.0.0.1') => {
    await createUser(s.deps, name, 1);
    return (await trpc(s.app, 'auth.login', { address }, { name, password: TEST_PASSWORD })).cookie!;
  };
  /** The session signed in longer ago than REAUTH_MINUTES (a cookie left on a borrowed computer). */
  const age = () => sql`update sessions set created_at = now() - make_interval(mins => ${REAUTH_MINUTES + 1})`.execute(s.db);

  it('asks a session that signed in more than REAUTH_MINUTES ago to confirm with the password (or a passkey) before adding one', async () => {
    const cookie = await signedIn('ines');
    const first = new SoftAuthenticator();
    expect((await addPasskey(s.app, cookie, first)).status).toBe(200);
    await age();
    const stale = await trpc(s.app, 'auth.passkeyRegistrationOptions', { cookie });
    expect([stale.status, stale.message]).toEqual([403, authMessages.confirmNeeded]);
    const token = await trpc(s.app, 'auth.createToken', { cookie }, { label: 'Script' });
    expect([token.status, token.message]).toEqual([403, authMessages.confirmNeeded]);
    // A wrong password confirms nothing; the right one does.
    const wrong = await trpc(s.app, 'auth.confirmPassword', { cookie }, { password: 'not it' });
    expect([wrong.status, wrong.message]).toEqual([400, authMessages.currentPasswordWrong]);
    expect((await addPasskey(s.app, cookie)).status).toBe(403);
    const right = await trpc(s.app, 'auth.confirmPassword', { cookie }, { password: TEST_PASSWORD });
    expect([right.status, right.data]).toEqual([200, { message: authMessages.confirmed }]);
    expect((await addPasskey(s.app, cookie, new SoftAuthenticator(), 'Phone')).status).toBe(200);
    expect((await trpc(s.app, 'auth.createToken', { cookie }, { label: 'Script' })).status).toBe(200);

    // Later again: one of the member's own passkeys confirms too; another member's does not.
    await age();
    await sql`update sessions set confirmed_at = now() - make_interval(mins => ${REAUTH_MINUTES + 1})`.execute(s.db);
    const other = new SoftAuthenticator();
    expect((await addPasskey(s.app, await signedIn('jon', '10.0.0.2'), other)).status).toBe(200);
    const foreign = await trpc(s.app, 'auth.passkeyLoginOptions', {});
    const refused = await trpc(s.app, 'auth.confirmPasskey', { cookie }, { response: other.get(foreign.data) });
    expect([refused.status, refused.message]).toEqual([401, authMessages.passkeyUnknown]);
    expect((await trpc(s.app, 'auth.createToken', { cookie }, { label: 'Later' })).status).toBe(403);
    const options = await trpc(s.app, 'auth.passkeyLoginOptions', {});
    const confirmed = await trpc(s.app, 'auth.confirmPasskey', { cookie }, { response: first.get(options.data) });
    expect([confirmed.status, confirmed.data]).toEqual([200, { message: authMessages.confirmed }]);
    expect((await trpc(s.app, 'auth.createToken', { cookie }, { label: 'Later' })).status).toBe(200);
  });

  it(`holds at most ${PASSKEYS_MAX} passkeys per account`, async () => {
    const cookie = await signedIn('kai');
    for (let i = 0; i < PASSKEYS_MAX; i++) expect((await addPasskey(s.app, cookie, new SoftAuthenticator(), `Key ${i}`)).status).toBe(200);
    const options = await trpc(s.app, 'auth.passkeyRegistrationOptions', { cookie });
    expect([options.status, options.message]).toEqual([409, authMessages.passkeyLimit]);
    // A ceremony begun before the limit was reached is refused at its end too.
    const [id] = (await trpc(s.app, 'auth.passkeys', { cookie }, undefined, 'GET')).data.map((p: { id: number }) => p.id);
    await trpc(s.app, 'auth.removePasskey', { cookie }, { id });
    const begun = await trpc(s.app, 'auth.passkeyRegistrationOptions', { cookie });
    expect(begun.status).toBe(200);
    expect((await addPasskey(s.app, cookie, new SoftAuthenticator(), 'Last')).status).toBe(200);
    const late = await trpc(s.app, 'auth.addPasskey', { cookie }, { name: 'Over', response: new SoftAuthenticator().create(begun.data) });
    expect([late.status, late.message]).toEqual([409, authMessages.passkeyLimit]);
    expect((await trpc(s.app, 'auth.passkeys', { cookie }, undefined, 'GET')).data).toHaveLength(PASSKEYS_MAX);
  });

  it('limits the sign-in challenges an address may ask for, and sweeps the expired ones', async () => {
    const asked = [];
    for (let i = 0; i < 31; i++) asked.push(await trpc(s.app, 'auth.passkeyLoginOptions', { address: '10.9.0.1' }));
    expect(asked.slice(0, 30).every((r) => r.status === 200)).toBe(true);
    expect([asked[30]?.status, asked[30]?.message]).toEqual([429, authMessages.passkeyRequestsThrottled]);
    expect((await trpc(s.app, 'auth.passkeyLoginOptions', { address: '10.9.0.2' })).status).toBe(200);
    const count = async () => Number((await s.db.selectFrom('auth_passkey_challenges').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    expect(await count()).toBe(31);
    await s.db.updateTable('auth_passkey_challenges').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    expect((await trpc(s.app, 'auth.passkeyLoginOptions', { address: '10.9.0.3' })).status).toBe(200);
    expect(await count()).toBe(1);
  });

  it("counts failed passkey sign-ins per account and as one account for the address: others' password logins there go on", async () => {
    const cookie = await signedIn('lou');
    const authenticator = new SoftAuthenticator();
    await addPasskey(s.app, cookie, authenticator);
    await createUser(s.deps, 'Mum', 3);
    const max = s.deps.config.loginThrottle.maxFailures;
    const cafe = { address: '10.20.0.1' };
    // A forged answer for Lou's passkey, again and again, from one address.
    for (let i = 0; i < max; i++) expect((await passkeySignIn(s.app, new SoftAuthenticator(), cafe, authenticator.credentialId)).status).toBe(401);
    expect((await passkeySignIn(s.app, authenticator, cafe)).status).toBe(429);
    // Mum, at the same address on a new device, signs in with her password at once.
    const mum = await trpc(s.app, 'auth.login', cafe, { name: 'Mum', password: TEST_PASSWORD });
    expect(mum.status).toBe(200);
    // Unknown passkeys count as accounts tried from the address, like unknown names.
    for (let i = 0; i < max - 1; i++) expect((await passkeySignIn(s.app, new SoftAuthenticator(), cafe)).status).toBe(401);
    const over = await passkeySignIn(s.app, new SoftAuthenticator(), cafe);
    expect([over.status, over.message]).toEqual([429, authMessages.throttled]);
    expect((await trpc(s.app, 'auth.login', cafe, { name: 'Nobody', password: 'x' })).status).toBe(429);
  });
});

describe.each(databases)('passkeys behind a proxy (%s)', (kind) => {
  const s = useTestServer(kind, { PUBLIC_URL: 'https://home.example.org' });

  it('uses PUBLIC_URL for the RP ID and the origin, whatever the Host header', async () => {
    await createUser(s.deps, 'hana', 1);
    const cookie = (await trpc(s.app, 'auth.login', {}, { name: 'hana', password: TEST_PASSWORD })).cookie!;
    const options = await trpc(s.app, 'auth.passkeyRegistrationOptions', { cookie, host: '10.0.0.2:3000' });
    expect(options.data.rp.id).toBe('home.example.org');
    const authenticator = new SoftAuthenticator('https://home.example.org');
    const added = await trpc(s.app, 'auth.addPasskey', { cookie, host: '10.0.0.2:3000' }, { name: 'Phone', response: authenticator.create(options.data) });
    expect(added.status).toBe(200);
    const login = await trpc(s.app, 'auth.passkeyLoginOptions', { host: '10.0.0.2:3000' });
    expect(login.data.rpId).toBe('home.example.org');
    const done = await trpc(s.app, 'auth.passkeyLogin', { host: '10.0.0.2:3000' }, { response: authenticator.get(login.data) });
    expect(done.data).toEqual({ user: 'hana', level: 1 });
  });
});
