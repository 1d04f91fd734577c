import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { openSource, type SourceEntry } from './sources.ts';

/** The zip reader of `npm run pictures -- import`: its own large-chunk read and inflate of each entry, checked against the zip's records. */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'site-sources-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function zipOf(name: string, entries: [string, Buffer, boolean][]): Promise<{ file: string; bytes: Buffer }> {
  const zip = new yazl.ZipFile();
  for (const [entry, data, compress] of entries) zip.addBuffer(data, entry, { compress });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const file = path.join(tmp, name);
  const bytes = Buffer.concat(chunks);
  fs.writeFileSync(file, bytes);
  return { file, bytes };
}

async function entriesOf(file: string): Promise<SourceEntry[]> {
  const all: SourceEntry[] = [];
  for await (const entry of (await openSource(file)).entries()) all.push(entry);
  return all;
}

async function read(entry: SourceEntry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await entry.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const CENTRAL = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/** The central directory's record of the entry named `name` (its signature, then fixed fields). */
function centralRecord(bytes: Buffer, name: string): number {
  for (let at = bytes.indexOf(CENTRAL); at >= 0; at = bytes.indexOf(CENTRAL, at + 4)) {
    const nameLength = bytes.readUInt16LE(at + 28);
    if (bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8') === name) return at;
  }
  throw new Error(`no central record for ${name}`);
}

describe('pictures import: reading a zip', () => {
  it('reads stored, deflated, empty and multi-megabyte entries byte for byte, each on its own and two at once', async () => {
    const big = randomBytes(5 * 1024 * 1024 + 12345);
    const text = Buffer.from('a photo caption, '.repeat(20000));
    const { file } = await zipOf('good.zip', [
      ['Takeout/Google Photos/big.jpg', big, true],
      ['Takeout/Google Photos/stored.jpg', big.subarray(0, 300_000), false],
      ['Takeout/Google Photos/text.json', text, true],
      ['Takeout/Google Photos/empty.jpg', Buffer.alloc(0), true],
    ]);
    const entries = await entriesOf(file);
    expect(entries.map((e) => [e.path, e.size])).toEqual([
      ['Takeout/Google Photos/big.jpg', big.length],
      ['Takeout/Google Photos/stored.jpg', 300_000],
      ['Takeout/Google Photos/text.json', text.length],
      ['Takeout/Google Photos/empty.jpg', 0],
    ]);
    const [a, b, c, d] = entries as [SourceEntry, SourceEntry, SourceEntry, SourceEntry];
    // The import reads the next file while the one before is still being sent.
    const [bigRead, storedRead] = await Promise.all([read(a), read(b)]);
    expect(sha(bigRead)).toBe(sha(big));
    expect(sha(storedRead)).toBe(sha(big.subarray(0, 300_000)));
    expect((await read(c)).equals(text)).toBe(true);
    expect((await read(d)).length).toBe(0);
  });

  it('fails an entry whose bytes are more or fewer than the zip records, or whose compression it cannot read', async () => {
    const data = Buffer.from('not really a photo, '.repeat(5000));
    const { bytes } = await zipOf('plain.zip', [['short.jpg', data, true], ['long.jpg', data, true], ['bzip.jpg', data, true]]);
    const damaged = Buffer.from(bytes);
    // The central directory says one byte more, one byte less, and method 12 (bzip2).
    damaged.writeUInt32LE(data.length + 1, centralRecord(damaged, 'short.jpg') + 24);
    damaged.writeUInt32LE(data.length - 1, centralRecord(damaged, 'long.jpg') + 24);
    damaged.writeUInt16LE(12, centralRecord(damaged, 'bzip.jpg') + 10);
    const file = path.join(tmp, 'damaged.zip');
    fs.writeFileSync(file, damaged);
    const [short, long, bzip] = (await entriesOf(file)) as [SourceEntry, SourceEntry, SourceEntry];
    await expect(read(short)).rejects.toThrow('short.jpg: fewer bytes than the zip records (a damaged download?)');
    await expect(read(long)).rejects.toThrow('long.jpg: more bytes than the zip records (a damaged download?)');
    await expect(read(bzip)).rejects.toThrow('bzip.jpg: unsupported compression method 12');
  });
});
