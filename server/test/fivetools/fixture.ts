import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar';

/** A stand-in for a 5eTools release: an index.html with an inline script and a script file that fetches a JSON file. */
export const FIXTURE_SITE = path.join(import.meta.dirname, 'fixture-site');

export function tempDir(prefix = 'fivetools-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function filesOf(dir: string, base = dir): { name: string; data: Buffer }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesOf(full, base) : [{ name: path.relative(base, full).split(path.sep).join('/'), data: fs.readFileSync(full) }];
  });
}

/**
 * A zip archive of entries (stored, not deflated), written by hand so the test needs no zip tool and
 * can also write entries no honest archiver would (`../escape.txt`).
 */
export function makeZip(file: string, entries: { name: string; data: Buffer }[]): string {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  fs.writeFileSync(file, Buffer.concat([...locals, ...centrals, end]));
  return file;
}

/** The fixture site as a release zip: everything inside one top folder, as 5eTools releases are. */
export function fixtureZip(dir: string, top = '5etools-v2.0.0'): string {
  return makeZip(path.join(dir, 'release.zip'), filesOf(FIXTURE_SITE).map((f) => ({ name: `${top}/${f.name}`, data: f.data })));
}

/** The fixture site as a tar.gz with its files at the top, changed so a test can tell the copies apart. */
export async function fixtureTarGz(dir: string, marker: string): Promise<string> {
  const src = path.join(dir, 'tar-src');
  fs.cpSync(FIXTURE_SITE, src, { recursive: true });
  fs.writeFileSync(path.join(src, 'marker.txt'), marker);
  const file = path.join(dir, 'release.tar.gz');
  await tar.c({ gzip: true, file, cwd: src }, fs.readdirSync(src));
  return file;
}

export const fixtureFile = (name: string) => fs.readFileSync(path.join(FIXTURE_SITE, name));
