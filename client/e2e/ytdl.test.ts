import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, seriousAxeViolations, signUpOwner, useSite, waitForShell } from './harness.ts';

/**
 * A short MP4 made with ffmpeg, served on 127.0.0.1 with Range support (no network needed). Under
 * /held/ the last quarter is held back until `release()`, so a download there cannot finish first.
 */
let clip: Buffer;
let mediaServer: http.Server;
let mediaBase = '';
let holding = 0;
let release = () => {};
const released = new Promise<void>((resolve) => (release = resolve));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ytdl-e2e-'));

beforeAll(async () => {
  const file = path.join(dir, 'clip.mp4');
  execFileSync('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=2',
    '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', file,
  ]);
  clip = fs.readFileSync(file);
  mediaServer = http.createServer((req, res) => {
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range?.[1] ? Number(range[1]) : 0;
    const end = range?.[2] ? Math.min(Number(range[2]), clip.length - 1) : clip.length - 1;
    res.writeHead(range ? 206 : 200, {
      'content-type': 'video/mp4',
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${end}/${clip.length}` } : {}),
    });
    if (req.method === 'HEAD') return void res.end();
    if (!req.url?.startsWith('/held/')) return void res.end(clip.subarray(start, end + 1));
    const middle = start + Math.floor(((end - start + 1) * 3) / 4);
    res.write(clip.subarray(start, middle));
    // Counted while held and open (yt-dlp's title request hangs up early).
    holding += 1;
    let counted = true;
    const uncount = () => {
      if (counted) holding -= 1;
      counted = false;
    };
    res.once('close', uncount);
    void released.then(() => {
      uncount();
      res.end(clip.subarray(middle, end + 1));
    });
  });
  await new Promise<void>((resolve) => mediaServer.listen(0, '127.0.0.1', resolve));
  mediaBase = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  mediaServer?.closeAllConnections();
  await new Promise((resolve) => mediaServer?.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describeInBrowser('YT-DL: a video saved to this device', () => {
  const site = useSite({ DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true' });

  it('pastes a link, shows its title, downloads it and the browser saves {title}.mp4', async () => {
    const page = await site.newPage({ viewport: DESKTOP });
    await signUpOwner(page);
    await page.goto('/personal/youtube');
    await waitForShell(page);
    await page.getByText(/Downloads with yt-dlp \d{4}\./).waitFor();

    // A watch link previews through youtube-nocookie, cut at its first '&'.
    const url = page.getByLabel('URL');
    await url.fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1&t=5');
    await expect(page.locator('iframe[title="Video preview"]').getAttribute('src')).resolves.toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');

    await url.fill(`${mediaBase}/held/Holiday%20clip.mp4?autoplay=1`);
    await expect.poll(() => page.getByTestId('video-title').textContent(), { timeout: 30_000 }).toContain('Holiday clip');
    await expect(page.getByText('No preview for this link').isVisible()).resolves.toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(page, 'ytdl-title-desktop', { fullPage: true });

    const downloadButton = page.getByRole('button', { name: 'Download', exact: true });
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), downloadButton.click()]);
    // The browser's download began while the server was still fetching: the host still holds the rest.
    expect(holding).toBeGreaterThan(0);
    release();
    expect(download.suggestedFilename()).toBe('Holiday clip.mp4');
    const saved = path.join(dir, 'saved.mp4');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved).equals(clip)).toBe(true);
    await page.getByText('Saved as').waitFor();
    await expect(downloadButton.textContent()).resolves.toBe('Download');

    // The audio track alone, on a phone.
    await page.setViewportSize(PHONE);
    await page.getByLabel('Format').selectOption('m4a');
    const [audio] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), downloadButton.click()]);
    expect(audio.suggestedFilename()).toBe('Holiday clip.m4a');
    await site.screenshot(page, 'ytdl-phone', { fullPage: true });
  });
});
