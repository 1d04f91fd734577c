import { beforeAll, describe, expect, it } from 'vitest';
import { formatCaptureDate } from '@site/contracts/pictures';
// The server's fixtures, made with sharp, ffmpeg and heif-enc: the page and the server read the same files.
import { dateFixtures, type DateFixture } from '../../../../server/test/pictures/date-fixtures.ts';
import { photoDate, suggestedDate } from './upload.ts';

describe("the upload page's date suggestion", () => {
  let fixtures: DateFixture[] = [];
  beforeAll(async () => {
    fixtures = await dateFixtures();
  }, 60_000);

  it('reads every file as the server does when the form sends no date (EXIF, XMP, QuickTime)', async () => {
    const read: Record<string, string | null> = {};
    for (const f of fixtures) {
      const date = await photoDate(new File([new Uint8Array(f.bytes)], f.name));
      read[f.name] = date ? formatCaptureDate(date) : null;
    }
    expect(read).toEqual(Object.fromEntries(fixtures.map((f) => [f.name, f.expected])));
  });

  it("suggests the photo's date, else the file's modified date", async () => {
    const mov = fixtures.find((f) => f.name === 'iphone.mov');
    const plain = fixtures.find((f) => f.name === 'plain.png');
    if (!mov || !plain) throw new Error('fixtures missing');
    expect(await suggestedDate(new File([new Uint8Array(mov.bytes)], 'IMG_0001.MOV'))).toEqual({
      parts: { year: '2020', month: '03', day: '05' },
      from: 'photo',
    });
    const modified = new Date(2023, 0, 5, 12).getTime();
    expect(await suggestedDate(new File([new Uint8Array(plain.bytes)], 'plain.png', { lastModified: modified }))).toEqual({
      parts: { year: '2023', month: '01', day: '05' },
      from: 'file',
    });
  });
});
