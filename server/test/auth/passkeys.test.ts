import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { describe, expect, it } from 'vitest';
import { authMessages } from '@site/contracts';
import { relyingParty } from '../../src/areas/auth/passkeys.ts';
import { createUser, databases, sessionCookie, TEST_PASSWORD, useTestServer } from '../helpers.ts';

const HOST = 'localhost:8080';
const ORIGIN = 'http://localhost:8080';

type Auth = { cookie?: string; bearer?: string; host?: string };

async function trpc(app: FastifyInstance, path: string, auth: Auth, input?: unknown, method: 'GET' | 'POST' = 'POST') {
  const headers: Record<string, string> = { host: auth.host ?? HOST };
  if (auth.cookie) headers.cookie = auth.cookie;
  if (auth.bearer) headers.authorization = `Bearer ${auth.bearer}`;
  const res =
    method === 'GET'
      ? await app.inject({ method, url: `/trpc/${path}`, headers })
      : await app.inject({ method, url: `/trpc/${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(input ?? {}) });
  const json = res.json();
  return { status: res.statusCode, data: json.result?.data, message: json.error?.message as string | undefined, cookie: sessionCookie(res) };
}

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());
const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));

/**
 * A software authenticator (one P-256 key per credential, attestation "none"), building the same
 * answers a browser's navigator.credentials.create() and .get() give, as WebAuthn level 2 defines them.
 */
class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly key: { privateKey: KeyObject; publicKey: KeyObject } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private counter = 0;
  constructor(private readonly origin = ORIGIN) {}

  private clientData(type: string, challenge: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  private authData(rpId: string, flags: number, attested?: Uint8Array) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(++this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  create(options: { challenge: string; rp: { id?: string } }) {
    const jwk = this.key.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, cose]);
    const authData = this.authData(options.rp.id!, 0x01 | 0x04 | 0x40, attested);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    return {
      id: b64(this.credentialId),
      rawId: b64(this.credentialId),
      type: 'public-key',
      response: { clientDataJSON: b64(this.clientData('webauthn.create', options.challenge)), attestationObject: b64(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  get(options: { challenge: string; rpId?: string }, credentialId = this.credentialId) {
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authData = this.authData(options.rpId!, 0x01 | 0x04);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.key.privateKey);
    return {
      id: b64(credentialId),
      rawId: b64(credentialId),
      type: 'public-key',
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature), userHandle: null },
      clientExtensionResults: {},
    };
  }
}

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

  async function addPasskey(cookie: string, authenticator = new SoftAuthenticator(), name = 'Laptop') {
    const options = await trpc(s.app, 'auth.passkeyRegistrationOptions', { cookie });
    expect(options.status).toBe(200);
    expect(options.data.rp.id).toBe('localhost');
    return trpc(s.app, 'auth.addPasskey', { cookie }, { name, response: authenticator.create(options.data) });
  }

  it('adds a passkey and signs in with it like a password login (session, status)', async () => {
    const cookie = await signedIn('anna');
    const authenticator = new SoftAuthenticator();
    const added = await addPasskey(cookie, authenticator);
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
    const added = await addPasskey(cookie, authenticator);
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
    await addPasskey(cookie, authenticator);
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
    const added = await addPasskey(cookie);
    const refusals = [
      await trpc(s.app, 'auth.passkeyRegistrationOptions', { bearer: token }),
      await trpc(s.app, 'auth.addPasskey', { bearer: token }, { name: 'X', response: new SoftAuthenticator().create({ challenge: 'abc', rp: { id: 'localhost' } }) }),
      await trpc(s.app, 'auth.renamePasskey', { bearer: token }, { id: added.data.id, name: 'Y' }),
      await trpc(s.app, 'auth.removePasskey', { bearer: token }, { id: added.data.id }),
    ];
    for (const r of refusals) expect([r.status, r.message]).toEqual([403, authMessages.needsPasswordSession]);
    expect((await trpc(s.app, 'auth.passkeys', { cookie }, undefined, 'GET')).data).toHaveLength(1);
    expect((await trpc(s.app, 'auth.passkeyRegistrationOptions', {})).status).toBe(401);
  });

  it('a pending member signs in with a passkey to a session that sees /preauth, refused like a password login', async () => {
    const cookie = await signedIn('finn', 0);
    const authenticator = new SoftAuthenticator();
    expect((await addPasskey(cookie, authenticator)).status).toBe(200);
    const options = await trpc(s.app, 'auth.passkeyLoginOptions', {});
    const login = await trpc(s.app, 'auth.passkeyLogin', {}, { response: authenticator.get(options.data) });
    expect([login.status, login.message]).toEqual([403, authMessages.pending]);
    const status = await trpc(s.app, 'auth.status', { cookie: login.cookie }, undefined, 'GET');
    expect(status.data).toEqual({ user: 'finn', level: 0 });
  });

  it('counts failed passkey sign-ins in the login limit', async () => {
    const cookie = await signedIn('gina');
    const authenticator = new SoftAuthenticator();
    await addPasskey(cookie, authenticator);
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
