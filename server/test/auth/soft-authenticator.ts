import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { sessionCookie } from '../helpers.ts';

export const HOST = 'localhost:8080';
export const ORIGIN = 'http://localhost:8080';

export type Auth = { cookie?: string; bearer?: string; host?: string; address?: string };

/** One tRPC call over HTTP as a browser at HOST (or a script with a token) would make it. */
export async function trpc(app: FastifyInstance, path: string, auth: Auth, input?: unknown, method: 'GET' | 'POST' = 'POST') {
  const headers: Record<string, string> = { host: auth.host ?? HOST };
  if (auth.cookie) headers.cookie = auth.cookie;
  if (auth.bearer) headers.authorization = `Bearer ${auth.bearer}`;
  const remote = auth.address ? { remoteAddress: auth.address } : {};
  const res =
    method === 'GET'
      ? await app.inject({ method, url: `/trpc/${path}`, headers, ...remote })
      : await app.inject({ method, url: `/trpc/${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(input ?? {}), ...remote });
  const json = res.json();
  return { status: res.statusCode, data: json.result?.data, message: json.error?.message as string | undefined, cookie: sessionCookie(res) };
}

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());
export const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));

/**
 * A software authenticator (one P-256 key per credential, attestation "none"), building the same
 * answers a browser's navigator.credentials.create() and .get() give, as WebAuthn level 2 defines them.
 */
export class SoftAuthenticator {
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

/** Adds a passkey from a signed-in browser (which signed in just now); the answer of auth.addPasskey. */
export async function addPasskey(app: FastifyInstance, cookie: string, authenticator = new SoftAuthenticator(), name = 'Laptop') {
  const options = await trpc(app, 'auth.passkeyRegistrationOptions', { cookie });
  if (options.status !== 200) return options;
  return trpc(app, 'auth.addPasskey', { cookie }, { name, response: authenticator.create(options.data) });
}

/** Signs in with the authenticator's passkey (or another credential id it answers for). */
export async function passkeySignIn(app: FastifyInstance, authenticator: SoftAuthenticator, auth: Auth = {}, credentialId?: SoftAuthenticator["credentialId"]) {
  const options = await trpc(app, 'auth.passkeyLoginOptions', auth);
  if (options.status !== 200) return options;
  return trpc(app, 'auth.passkeyLogin', auth, { response: authenticator.get(options.data, credentialId) });
}
