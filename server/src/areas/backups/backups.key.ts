import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { BackupError } from './backups.archive.ts';

/**
 * The key archives are signed with: 32 random bytes (hex) in a file outside every archive
 * (BACKUP_KEY_FILE, DATA_DIR/backup.key by default, mode 0600), made by the first backup. The
 * signature is an HMAC-SHA256 of the manifest's bytes, and the manifest holds every entry's SHA-256:
 * an archive changed by someone without the key (a row added, its sums made again) no longer matches.
 * Whoever can read the key (the data folder) can sign; docs/backups.md says what that means.
 */
export type SigningKey = { file: string; id: string; secret: Buffer };

/** The entry after the manifest that signs it. */
export const SIGNATURE = 'manifest.sig';

export type Signature = { algorithm: 'HMAC-SHA256'; key: string; hmac: string };

export const defaultKeyFile = (dataDir: string) => path.join(dataDir, 'backup.key');

/** A short public name of a key (the start of its SHA-256), so a message can say which key signed. */
const keyId = (secret: Buffer) => createHash('sha256').update(secret).digest('hex').slice(0, 16);

async function readKey(file: string): Promise<SigningKey | null> {
  let text: string;
  try {
    text = (await fsp.readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new BackupError(`The backup signing key ${file} cannot be read: ${(error as Error).message}`);
  }
  if (!/^[0-9a-f]{64}$/.test(text)) throw new BackupError(`The backup signing key ${file} is not 64 hexadecimal digits: restore it from your copy`);
  const secret = Buffer.from(text, 'hex');
  return { file, id: keyId(secret), secret };
}

/** The key in `file`, or null when there is none yet. */
export const findSigningKey = (file: string): Promise<SigningKey | null> => readKey(file);

/** The key in `file`, made (0600, never replaced) when there is none yet: what a backup signs with. */
export async function signingKey(file: string): Promise<SigningKey> {
  const found = await readKey(file);
  if (found) return found;
  await fsp.mkdir(path.dirname(file), { recursive: true });
  try {
    await fsp.writeFile(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // Another process made it first: that one is the key.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const made = await readKey(file);
  if (!made) throw new BackupError(`The backup signing key ${file} could not be made`);
  return made;
}

export function sign(manifest: Buffer, key: SigningKey): Buffer {
  const signature: Signature = { algorithm: 'HMAC-SHA256', key: key.id, hmac: createHmac('sha256', key.secret).update(manifest).digest('hex') };
  return Buffer.from(`${JSON.stringify(signature)}\n`);
}

/** What an archive must show to be trusted: a signature by `key`, or nothing when `unsigned` (the owner vouches for the file). */
export type Trust = { keyFile: string; key: SigningKey | null; unsigned: boolean };

/** The trust of a site whose key is `keyFile` (not made here: checking never makes a key). */
export async function trustOf(keyFile: string, unsigned = false): Promise<Trust> {
  return { keyFile, key: await findSigningKey(keyFile), unsigned };
}

const UNSIGNED_HINT = 'restore it only if you trust the file, with --unsigned (docs/backups.md)';

/** Throws unless `signature` (the entry's bytes, or null when the archive has none) signs `manifest` with the trusted key. */
export function checkSignature(file: string, manifest: Buffer, signature: Buffer | null, trust: Trust): void {
  if (trust.unsigned) return;
  if (!signature) throw new BackupError(`${file} is not signed (made before backups were signed, or its signature was removed): ${UNSIGNED_HINT}`);
  let parsed: Partial<Signature>;
  try {
    parsed = JSON.parse(signature.toString('utf8')) as Partial<Signature>;
  } catch {
    throw new BackupError(`${file}: its signature is not readable`);
  }
  if (parsed.algorithm !== 'HMAC-SHA256' || typeof parsed.hmac !== 'string' || typeof parsed.key !== 'string') {
    throw new BackupError(`${file}: its signature is of an unknown kind`);
  }
  const { key } = trust;
  if (!key) {
    throw new BackupError(
      `${file} is signed with key ${parsed.key}, and there is no key at ${trust.keyFile} to check it: copy the backup.key of the site that made it there (or point BACKUP_KEY_FILE at it), or ${UNSIGNED_HINT}`,
    );
  }
  if (parsed.key !== key.id) {
    throw new BackupError(`${file} is signed with another key (${parsed.key}) than ${trust.keyFile} (${key.id}): use the key of the site that made it, or ${UNSIGNED_HINT}`);
  }
  const want = createHmac('sha256', key.secret).update(manifest).digest();
  const got = Buffer.from(parsed.hmac, 'hex');
  if (got.length !== want.length || !timingSafeEqual(got, want)) {
    throw new BackupError(`${file}: its signature does not match its manifest: the archive was changed after it was made`);
  }
}
