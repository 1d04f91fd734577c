import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findXmpDate, formatCaptureDate, parseMetadataDate, xmpCaptureDate, type ByteSource } from '@site/contracts';
import { fileCaptureDate } from '../../src/areas/pictures/pictures.media.ts';
import { dateFixtures, XMP_ATTRIBUTE, XMP_ELEMENT, type DateFixture } from './date-fixtures.ts';

describe('capture dates the server reads when the form sends none', () => {
  let fixtures: DateFixture[] = [];
  let dir = '';
  beforeAll(async () => {
    fixtures = await dateFixtures();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-dates-'));
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('reads EXIF, then XMP, then QuickTime, from every kind of file (the same list the upload page is tested on)', async () => {
    const read: Record<string, string | null> = {};
    for (const f of fixtures) {
      const file = path.join(dir, f.name);
      fs.writeFileSync(file, f.bytes);
      const date = await fileCaptureDate(file);
      read[f.name] = date ? formatCaptureDate(date) : null;
    }
    expect(read).toEqual(Object.fromEntries(fixtures.map((f) => [f.name, f.expected])));
  });

  it('takes dates as written, refuses blank and impossible ones, and reads XMP in either form', () => {
    expect(parseMetadataDate('2021:07:15 10:20:30')).toEqual({ year: 2021, month: 7, day: 15 });
    expect(parseMetadataDate('2021-07-15T23:30:00-05:00')).toEqual({ year: 2021, month: 7, day: 15 });
    expect(parseMetadataDate('2021-07')).toEqual({ year: 2021, month: 7, day: 0 });
    expect(parseMetadataDate('2021')).toEqual({ year: 2021, month: 0, day: 0 });
    for (const bad of ['    :  :     ', '0000:00:00 00:00:00', '2021:02:30 00:00:00', '2021:13:01', 'yesterday', '', undefined, 20210715]) {
      expect(parseMetadataDate(bad), String(bad)).toBeNull();
    }
    // exif:DateTimeOriginal comes before xmp:CreateDate, photoshop:DateCreated before xmp:ModifyDate.
    expect(xmpCaptureDate(XMP_ATTRIBUTE)).toEqual({ year: 2018, month: 5, day: 6 });
    expect(xmpCaptureDate(XMP_ELEMENT)).toEqual({ year: 2017, month: 8, day: 9 });
  });

  it('finds an XMP packet among binary bytes: not a near-miss tag, nor an unclosed one, and one at the end of a large file', async () => {
    const source = (bytes: Buffer): ByteSource => ({ size: bytes.length, read: async (offset, length) => bytes.subarray(offset, offset + length) });
    const noise = Buffer.alloc(200_000);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251; // '<' and 'x' among them
    const packet = Buffer.from(XMP_ELEMENT, 'utf8');
    const nearMiss = Buffer.from('<x:xmpmetadata><photoshop:DateCreated>1999-01-01</photoshop:DateCreated></x:xmpmeta>', 'latin1');
    expect(await findXmpDate(source(Buffer.concat([noise, nearMiss, noise, packet, noise])))).toEqual({ year: 2017, month: 8, day: 9 });
    expect(await findXmpDate(source(Buffer.concat([noise, Buffer.from('<x:xmpmeta><xmp:CreateDate>2001-01-01</xmp:CreateDate>'), noise])))).toBeNull();
    // Past the 8 MB head, in the last megabyte (PNG and TIFF writers may put it there).
    const large = Buffer.concat([Buffer.alloc(9 * 1024 * 1024, 0x3c), packet, noise]);
    expect(await findXmpDate(source(large))).toEqual({ year: 2017, month: 8, day: 9 });
  });

  it('finds nothing in a file that is cut short or is not media at all, without throwing', async () => {
    const file = path.join(dir, 'cut.mov');
    const mov = fixtures.find((f) => f.name === 'iphone.mov')?.bytes ?? Buffer.alloc(0);
    fs.writeFileSync(file, mov.subarray(0, 200));
    expect(await fileCaptureDate(file)).toBeNull();
    fs.writeFileSync(file, Buffer.from('not a picture at all'));
    expect(await fileCaptureDate(file)).toBeNull();
    expect(await fileCaptureDate(path.join(dir, 'missing.jpg'))).toBeNull();
  });
});
