import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { makeClip, serveMedia, type MediaServer } from '../../server/test/ytdl/ytdl.fixture.ts';
import { PHONE, describeInBrowser, expect, seriousAxeViolations, useSite, ownerOn } from './harness.ts';

/**
 * A short MP4 made with ffmpeg, served on 127.0.0.1 by the server tests' media host (no network
 * needed): under /held/ the last quarter is held back until `release()`, so a download there cannot
 * finish first.
 */
let clip: Buffer;
let media: MediaServer;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ytdl-e2e-'));

beforeAll(async () => {
  const file = await makeClip(dir);
  clip = fs.readFileSync(file);
  media = await serveMedia(file);
});
afterAll(async () => {
  await media?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describeInBrowser('YT-DL: a video saved to this device', () => {
  const site = useSite({ DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true' });

  it('pastes a link, shows its title, downloads it and the browser saves {title}.mp4', async () => {
    const page = await ownerOn(site, '/personal/youtube');
    await page.getByText(/Downloads with yt-dlp \d{4}\./).waitFor();

    // Under the empty URL field, the next thing follows at the form's usual spacing (its hint line and gap), no empty band.
    const url = page.getByLabel('URL');
    const band = await page.evaluate(() => {
      const field = document.querySelector('.ytdl-form .field input')?.getBoundingClientRect();
      const next = document.querySelector('.ytdl-preview')?.getBoundingClientRect();
      return field && next ? next.top - field.bottom : -1;
    });
    expect(band).toBeGreaterThan(0);
    expect(band).toBeLessThanOrEqual(32);

    // A watch link previews through youtube-nocookie, cut at its first '&'.
    await url.fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1&t=5');
    await expect(page.locator('iframe[title="Video preview"]').getAttribute('src')).resolves.toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');

    await url.fill(media.url('held/Holiday%20clip.mp4?autoplay=1'));
    await expect.poll(() => page.getByTestId('video-title').textContent(), { timeout: 30_000 }).toContain('Holiday clip');
    await expect(page.getByText('No preview for this link').isVisible()).resolves.toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(page, 'ytdl-title-desktop', { fullPage: true });

    const downloadButton = page.getByRole('button', { name: 'Download', exact: true });
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), downloadButton.click()]);
    // The browser's download began while the server was still fetching: the host still holds the rest,
    // and the page shows how far yt-dlp got (percent, size, and the speed while yt-dlp knows one: a
    // download held still by the host has none, and a CI run caught the page between the two).
    expect(media.holding()).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('progress').textContent(), { timeout: 30_000 })
      .toMatch(/^\d+% · [\d.]+ KB of [\d.]+ KB( · [\d.]+ [KMG]?B\/s)?$/);
    media.release();
    expect(download.suggestedFilename()).toBe('Holiday clip.mp4');
    const saved = path.join(dir, 'saved.mp4');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved).equals(clip)).toBe(true);
    await page.getByText('Saved as').waitFor();
    // What the file holds, probed on the server: the clip is H.264 and AAC.
    await expect(page.getByTestId('codecs').textContent()).resolves.toBe('H.264 video, AAC audio. Plays on iPhones, Android, computers and TVs.');
    await expect(downloadButton.textContent()).resolves.toBe('Download');

    // The audio track alone, on a phone (from a link that is not held back).
    await page.setViewportSize(PHONE);
    await url.fill(media.url('Holiday%20clip.mp4'));
    await page.getByLabel('Format').selectOption('m4a');
    const [audio] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), downloadButton.click()]);
    expect(audio.suggestedFilename()).toBe('Holiday clip.m4a');
    await site.screenshot(page, 'ytdl-phone', { fullPage: true });
  });
});
