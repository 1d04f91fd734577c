/** The part of http_ece (RFC 8188 encrypted content encoding) the test push service uses. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  type Params = { version: 'aes128gcm'; privateKey?: ECDH; authSecret?: string; dh?: string; key?: string };
  export function decrypt(buffer: Buffer, params: Params): Buffer;
  export function encrypt(buffer: Buffer, params: Params): Buffer;
  const ece: { decrypt: typeof decrypt; encrypt: typeof encrypt };
  export default ece;
}
