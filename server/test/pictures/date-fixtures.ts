import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';

/**
 * Files that carry a capture date in each place real cameras, phones and editors put one, and the
 * date each must be read as. The server's test (its fallback for an upload without a date) and the
 * client's (the upload page's suggestion) read the same list, so the two agree on every file.
 * Made here with sharp, ffmpeg and heif-enc: no binary fixtures in the repository.
 */
export type DateFixture = { name: string; bytes: Buffer; expected: string | null };

const xmpPacket = (body: string) =>
  `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.6">` +
  `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${body}</rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>`;

/** XMP as Lightroom writes it: the date as an attribute of rdf:Description. */
export const XMP_ATTRIBUTE = xmpPacket(
  `<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" ` +
    `exif:DateTimeOriginal="2018-05-06T07:08:09.120+02:00" xmp:CreateDate="2001-01-01T00:00:00"/>`,
);
/** XMP as Photoshop writes it: photoshop:DateCreated as an element. */
export const XMP_ELEMENT = xmpPacket(
  `<rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">` +
    `<xmp:ModifyDate>2024-01-01T00:00:00</xmp:ModifyDate><photoshop:DateCreated>2017-08-09</photoshop:DateCreated></rdf:Description>`,
);
/** Only xmp:CreateDate, in UTC. */
const XMP_CREATE = xmpPacket(
  `<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:CreateDate>2016-10-11T23:59:00Z</xmp:CreateDate></rdf:Description>`,
);

const still = (background = '#446688') => sharp({ create: { width: 64, height: 48, channels: 3, background } });

/** A PNG chunk (length, type, data, CRC-32). */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A PNG with an XMP packet in an iTXt chunk after IHDR (where exiftool and Photoshop put it). */
export async function pngWithXmp(xmp: string): Promise<Buffer> {
  const png = await still('#884422').png().toBuffer();
  const ihdrEnd = 8 + 8 + 13 + 4;
  const itxt = pngChunk('iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), Buffer.from(xmp, 'utf8')]));
  return Buffer.concat([png.subarray(0, ihdrEnd), itxt, png.subarray(ihdrEnd)]);
}

/** A JPEG whose only date is in XMP (an APP1 segment sharp writes from withXmp). */
export function jpegWithXmp(xmp: string): Promise<Buffer> {
  return still('#228844').jpeg().withXmp(xmp).toBuffer();
}

/** A minimal 1x1 RGB Photoshop file with an XMP packet in its image resources (ID 0x0424). */
export function psdWithXmp(xmp: string): Buffer {
  const u16 = (n: number) => {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(n);
    return b;
  };
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const data = Buffer.from(xmp, 'utf8');
  const padded = data.length % 2 ? Buffer.concat([data, Buffer.alloc(1)]) : data;
  const resource = Buffer.concat([Buffer.from('8BIM'), u16(0x0424), Buffer.alloc(2), u32(data.length), padded]);
  return Buffer.concat([
    Buffer.from('8BPS'),
    u16(1),
    Buffer.alloc(6),
    u16(3),
    u32(1),
    u32(1),
    u16(8),
    u16(3),
    u32(0), // colour mode data
    u32(resource.length),
    resource,
    u32(0), // layers and masks
    u16(0), // raw image data
    Buffer.from([200, 100, 50]),
  ]);
}

function tool(program: string, args: string[], dir: string, out: string): Buffer {
  execFileSync(program, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  return fs.readFileSync(path.join(dir, out));
}

/** A HEIC (HEVC, as an iPhone saves) made by heif-enc from a JPEG; the JPEG's EXIF goes along. */
export async function heic(opts: { date?: string; width?: number; height?: number; background?: string } = {}): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-heic-'));
  try {
    let jpeg = still(opts.background ?? '#2a6fb0')
      .resize(opts.width ?? 64, opts.height ?? 48)
      .jpeg();
    if (opts.date) jpeg = jpeg.withExifMerge({ IFD2: { DateTimeOriginal: opts.date } });
    await jpeg.toFile(path.join(dir, 'in.jpg'));
    return tool('heif-enc', ['-q', '50', 'in.jpg', '-o', 'out.heic'], dir, 'out.heic');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A one-second video made by ffmpeg with the metadata given as `-metadata` pairs. */
export function video(ext: string, metadata: Record<string, string>, extra: string[] = []): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-video-'));
  try {
    const codec = ext === '3gp' ? ['-c:v', 'h263', '-s', '176x144'] : ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-s', '160x120'];
    const meta = Object.entries(metadata).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]);
    const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=176x144:rate=10', ...codec, ...meta, ...extra];
    return tool('ffmpeg', [...args, `out.${ext}`], dir, `out.${ext}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function dateFixtures(): Promise<DateFixture[]> {
  return [
    { name: 'exif.jpg', bytes: await still().jpeg().withExifMerge({ IFD2: { DateTimeOriginal: '2021:07:15 10:20:30' } }).toBuffer(), expected: '2021-07-15' },
    {
      // A blank DateTimeOriginal (as some scanners write it): CreateDate (DateTimeDigitized) stands in.
      name: 'blank-original.jpg',
      bytes: await still()
        .jpeg()
        .withExifMerge({ IFD2: { DateTimeOriginal: '    :  :     ', DateTimeDigitized: '2019:02:03 04:05:06' } })
        .toBuffer(),
      expected: '2019-02-03',
    },
    { name: 'exif.webp', bytes: await still().webp().withExifMerge({ IFD2: { DateTimeOriginal: '2012:03:04 05:06:07' } }).toBuffer(), expected: '2012-03-04' },
    { name: 'exif.png', bytes: await still().png().withExifMerge({ IFD2: { DateTimeOriginal: '2013:04:05 06:07:08' } }).toBuffer(), expected: '2013-04-05' },
    { name: 'xmp-only.jpg', bytes: await jpegWithXmp(XMP_ATTRIBUTE), expected: '2018-05-06' },
    { name: 'xmp.png', bytes: await pngWithXmp(XMP_ELEMENT), expected: '2017-08-09' },
    { name: 'xmp.tif', bytes: await still().tiff().withXmp(XMP_CREATE).toBuffer(), expected: '2016-10-11' },
    { name: 'xmp.psd', bytes: psdWithXmp(XMP_ELEMENT), expected: '2017-08-09' },
    { name: 'exif.heic', bytes: await heic({ date: '2022:01:02 03:04:05' }), expected: '2022-01-02' },
    {
      // An iPhone video: the local date with its zone (08:30 in Tokyo is still the 4th in UTC).
      name: 'iphone.mov',
      bytes: video('mov', { 'com.apple.quicktime.creationdate': '2020-03-05T08:30:00+0900', creation_time: '2020-03-04T23:30:00Z' }, [
        '-movflags',
        'use_metadata_tags',
      ]),
      expected: '2020-03-05',
    },
    { name: 'camera.mp4', bytes: video('mp4', { creation_time: '2019-12-31T23:30:00Z' }), expected: '2019-12-31' },
    { name: 'exported.m4v', bytes: video('m4v', { creation_time: '2015-06-07T08:00:00Z' }, ['-f', 'mp4']), expected: '2015-06-07' },
    { name: 'phone.3gp', bytes: video('3gp', { creation_time: '2009-04-05T06:07:08Z' }), expected: '2009-04-05' },
    { name: 'plain.png', bytes: await still().png().toBuffer(), expected: null },
    { name: 'plain.mp4', bytes: video('mp4', {}), expected: null },
  ];
}
