/**
 * Import benchmark (issue 47). Prints numbers; asserts nothing.   Run: npm run bench:import
 *
 * The 169 files of bench:pictures' run (phone JPEGs with EXIF, HEIC, PNG screenshots, big-endian TIFF
 * scans, MP4 clips; a kind whose maker program, heif-enc, tiffcp or ffmpeg, is missing here is a JPEG
 * instead; BENCH_RUN_FILES to change) go into one real server (a child process, PGlite, without its
 * preview worker, so both doors are timed alone) four times, with distinct bytes each time:
 * - one request each to POST /api/pictures/upload over 127.0.0.1, one after another, as the upload page sends them;
 * - `npm run pictures -- import` of a takeout zip of them (deflated, sidecars beside each), streamed
 *   over the server's control socket, the importer in this process.
 * In the order upload, import, import, upload, each after a `sync`: the kernel's write-back of the
 * 1.1 GB the phase before wrote otherwise slows the next one (one run measured 1.14, the next 0.61).
 * Printed: files/s of each and their ratio (goal: the import at least 0.8 of the uploads), and the RSS
 * growth of the importer (this process) and of the server during the import (goal: under 200 MB each).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import yazl from 'yazl';
import { openImportTransport } from '@site/server/areas/pictures/pictures.import.cli';
import { loadConfig } from '@site/server/config';
import { runImport } from '../src/pictures/import.ts';
import { lines } from './bench-site.ts';
import { buildLabel, serverProcessArgs } from './server-process.ts';
import { flushDisk, postUpload, unique } from './upload-files.ts';

const RUN_FILES = Number(process.env.BENCH_RUN_FILES ?? 169);
const fmt = (n: number) => n.toFixed(2);
const mb = (n: number) => fmt(n / 2 ** 20);

const has = (program: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** bench:pictures' mix of 169 files (its realRunFiles), each kind made as it makes it when its program is here. */
type RunFile = { name: string; data: () => Buffer; size: number };

async function runFiles(dir: string, count: number): Promise<{ files: (i: number) => RunFile[]; made: string }> {
  const noisy = (width: number, height: number, background: string, sigma = 30) =>
    sharp({ create: { width, height, channels: 3, background, noise: { type: 'gaussian', mean: 120, sigma } } });
  const jpegs = await Promise.all(
    ['#4477aa', '#aa7744', '#44aa77', '#7744aa'].map((colour, i) =>
      noisy(4032, 3024, colour)
        .jpeg({ quality: 88 })
        .withMetadata({ orientation: i % 2 ? 6 : 1 })
        .withExifMerge({ IFD0: { Make: 'Apple', Model: 'iPhone 12' }, IFD2: { DateTimeOriginal: `2023:0${i + 1}:15 10:20:30` } })
        .toBuffer(),
    ),
  );
  const png = await noisy(2532, 1170, '#223344', 8).png().toBuffer();
  let heic: Buffer | null = null;
  if (has('heif-enc')) {
    const source = path.join(dir, 'heic.jpg');
    await noisy(4032, 3024, '#4477aa', 12).jpeg({ quality: 85 }).toFile(source);
    execFileSync('heif-enc', ['-q', '60', source, '-o', path.join(dir, 'photo.heic')], { stdio: 'ignore' });
    heic = fs.readFileSync(path.join(dir, 'photo.heic'));
  }
  let tiff: Buffer | null = null;
  if (has('tiffcp')) {
    await noisy(3400, 2200, '#ddccbb', 20).tiff({ compression: 'lzw' }).toFile(path.join(dir, 'scan-le.tif'));
    execFileSync('tiffcp', ['-B', path.join(dir, 'scan-le.tif'), path.join(dir, 'scan.tif')], { stdio: 'ignore' });
    tiff = fs.readFileSync(path.join(dir, 'scan.tif'));
  }
  let mp4: Buffer | null = null;
  if (has('ffmpeg')) {
    const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=8:size=1920x1080:rate=30'];
    execFileSync('ffmpeg', [...args, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-f', 'mp4', path.join(dir, 'clip.mp4')], { stdio: 'ignore' });
    mp4 = fs.readFileSync(path.join(dir, 'clip.mp4'));
  }
  const made = `HEIC ${heic ? 'made' : 'as JPEG (no heif-enc)'}, TIFF ${tiff ? 'made' : 'as JPEG (no tiffcp)'}, MP4 ${mp4 ? 'made' : 'as JPEG (no ffmpeg)'}`;
  // The bytes of each file are made when sent (distinct from the base file by a mark): 169 files of 6 MB are not held at once.
  const files = (offset: number) => {
    const out: RunFile[] = [];
    const add = (name: string, base: Buffer, n: number, kind: 'box' | 'tail') => out.push({ name, data: () => unique(base, n, kind), size: base.length + 16 });
    for (let i = 0; out.length < count; i++) {
      const slot = i % 13;
      const n = offset + i;
      const jpeg = jpegs[i % jpegs.length] ?? Buffer.alloc(0);
      if (slot < 8 || (slot < 10 && !heic) || (slot === 11 && !tiff) || (slot === 12 && !mp4)) add(`IMG_${1000 + i}.JPG`, jpeg, n, 'tail');
      else if (slot < 10 && heic) add(`IMG_${1000 + i}.HEIC`, heic, n, 'box');
      else if (slot === 10) add(`Screenshot ${i}.png`, png, n, 'tail');
      else if (slot === 11 && tiff) add(`scan-${i}.tif`, tiff, n, 'tail');
      else if (mp4) add(`VID_${i}.mp4`, mp4, n, 'box');
    }
    return out;
  };
  return { files, made };
}

async function writeTakeout(file: string, files: RunFile[]): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [i, f] of files.entries()) {
    const folder = `Takeout/Google Photos/Photos from ${2000 + (i % 20)}`;
    // Made when yazl reaches it, so the zip is written without every file in memory.
    zip.addReadStream(Readable.from((function* () {
      yield f.data();
    })()), `${folder}/${f.name}`);
    const taken = String(Date.UTC(2000 + (i % 20), i % 12, 1 + (i % 28)) / 1000);
    zip.addBuffer(Buffer.from(JSON.stringify({ title: f.name, description: `Picture ${i}`, photoTakenTime: { timestamp: taken }, geoData: { latitude: 50.26, longitude: -5.05 }, favorited: i % 10 === 0 })), `${folder}/${f.name}.supplemental-metadata.json`);
  }
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(fs.createWriteStream(file)).on('finish', resolve).on('error', reject));
}

async function main() {
  console.log(`Import benchmark on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), ${buildLabel}; load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-files-'));
  const { files, made } = await runFiles(dir, RUN_FILES);
  // Each phase's files have bytes of their own (no duplicate of an earlier phase's).
  const uploadSets = [files(0), files(2_000_000)];
  const megabytes = uploadSets[0]!.reduce((sum, f) => sum + f.size, 0) / 2 ** 20;
  const zipFiles = [path.join(dir, 'takeout-001.zip'), path.join(dir, 'takeout-002.zip')];
  await writeTakeout(zipFiles[0]!, files(1_000_000));
  await writeTakeout(zipFiles[1]!, files(3_000_000));
  console.log(`  ${RUN_FILES} files, ${fmt(megabytes)} MB a phase (${made}); each takeout zip ${mb(fs.statSync(zipFiles[0]!).size)} MB with a sidecar per file`);
  console.log('  phases in the order upload, import, import, upload, each after a sync');

  const child = spawn(process.execPath, await serverProcessArgs(new URL('./import-server.ts', import.meta.url).href, [], ['--expose-gc']), { stdio: ['pipe', 'pipe', 'inherit'] });
  const next = lines(child.stdout);
  const { base, cookie, dir: siteDir } = JSON.parse(await next()) as { base: string; cookie: string; dir: string };

  // One request per file, one after another, as the upload page sends them.
  const boundary = 'benchImportBoundary7Qz';
  const upload = async (set: RunFile[]) => {
    flushDisk();
    const statuses = new Map<number, number>();
    const start = performance.now();
    for (const file of set) {
      const status = await postUpload(base, cookie, file.name, file.data(), boundary);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const seconds = (performance.now() - start) / 1000;
    console.log(`  one-request uploads: ${set.length} files in ${fmt(seconds)} s = ${fmt(set.length / seconds)} files/s, ${fmt(megabytes / seconds)} MB/s (answers ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')})`);
    return seconds;
  };

  // The import of a takeout zip, through the control socket, with the RSS growth of both processes.
  const importZip = async (zipFile: string) => {
    flushDisk();
    child.stdin.write('mark\n');
    const serverBefore = (JSON.parse(await next()) as { rss: number }).rss;
    global.gc?.();
    const ownBefore = process.memoryUsage().rss;
    let ownPeak = ownBefore;
    const sampler = setInterval(() => {
      ownPeak = Math.max(ownPeak, process.memoryUsage().rss);
    }, 20);
    const transport = await openImportTransport(loadConfig({ DATA_DIR: siteDir, LOG_LEVEL: 'silent' }));
    const start = performance.now();
    const summary = await runImport(transport, { paths: [zipFile], as: null, albumsFromFolders: false, report: path.join(dir, 'report.txt'), dataDir: siteDir, print: () => {}, tty: null });
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    await transport.close();
    child.stdin.write('peak\n');
    const serverPeak = (JSON.parse(await next()) as { rss: number }).rss;
    const skipped = Object.values(summary.skipped).reduce((a, b) => a + b, 0);
    console.log(`  npm run pictures -- import of ${path.basename(zipFile)} (over ${transport.by}): ${summary.imported} imported, ${summary.already} already there, ${skipped} skipped in ${fmt(seconds)} s = ${fmt(RUN_FILES / seconds)} files/s, ${fmt(megabytes / seconds)} MB/s; RSS growth: importer ${mb(ownPeak - ownBefore)} MB (from ${mb(ownBefore)} MB), server ${mb(serverPeak - serverBefore)} MB (from ${mb(serverBefore)} MB)`);
    return { seconds, growth: Math.max(ownPeak - ownBefore, serverPeak - serverBefore) };
  };

  const up1 = await upload(uploadSets[0]!);
  const im1 = await importZip(zipFiles[0]!);
  const im2 = await importZip(zipFiles[1]!);
  const up2 = await upload(uploadSets[1]!);
  const uploadRate = (2 * RUN_FILES) / (up1 + up2);
  const importRate = (2 * RUN_FILES) / (im1.seconds + im2.seconds);
  console.log(`\nOne-request uploads ${fmt(uploadRate)} files/s, the import ${fmt(importRate)} files/s (both phases of each)`);
  console.log(`   import / uploads: ${fmt(importRate / uploadRate)} of the one-request rate (goal >= 0.8)`);
  console.log(`   RSS growth during an import, the larger process and run: ${mb(Math.max(im1.growth, im2.growth))} MB (goal < 200 MB)`);
  console.log(`load average at the end ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
