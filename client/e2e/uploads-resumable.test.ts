import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { it } from 'vitest';
import { DESKTOP, PHONE, describeInBrowser, expect, logIn, serviceWorkerControls, signUpOwner, useSite, waitForShell } from './harness.ts';

/** A JPEG of noise (it hardly compresses): a few MB, so a throttled upload is still on its way when the network drops. */
async function noiseJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 100 })
    .withExifMerge({ IFD2: { DateTimeOriginal: '2020:08:09 10:11:12' } })
    .toBuffer();
}

/**
 * A TCP proxy in front of the site whose uplink carries about `bytesPerSecond` (the browser's bytes
 * to the server wait; answers pass at once): a phone's slow upload, so the file is still on its way
 * when the network drops. Cookies are per host, not port, so a member signed in on the site is signed
 * in through the proxy too.
 */
async function slowUplink(target: string, bytesPerSecond: number): Promise<{ baseUrl: string; uploaded(): number; cut(): void; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  let uploaded = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      client.pause();
      uploaded += chunk.length;
      upstream.write(chunk);
      setTimeout(() => client.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
    client.on('end', () => upstream.end());
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, hostname, resolve));
  const address = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://${hostname}:${address.port}`,
    uploaded: () => uploaded,
    /** The network goes away: every connection through the proxy drops at once. */
    cut: () => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The SHA-256 of what the site serves as the newest picture's original, fetched by the page (the member's cookie). */
async function servedOriginalSha(page: Page, caption: string): Promise<string> {
  return page.evaluate(async (wanted) => {
    const input = encodeURIComponent(JSON.stringify({ type: 'month', index: 0 }));
    const res = await fetch(`/trpc/pictures.page?input=${input}`);
    const body = (await res.json()) as { result: { data: { pictures: { target: string; desc: string }[] } } };
    const picture = body.result.data.pictures.find((p) => p.desc === wanted);
    if (!picture) return 'missing';
    const bytes = await (await fetch(`/private/pictures/${picture.target}`)).arrayBuffer();
    const digest = await crypto.subtle.digest('SHA-256', bytes);
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }, caption);
}

describeInBrowser('resumable uploads and the share sheet', () => {
  const site = useSite();

  it.each([
    ['desktop', DESKTOP, 'resume-desktop'],
    ['phone', PHONE, 'resume-phone'],
  ] as const)('an upload cut by the network (offline, then online) resumes from the server and ends byte for byte (%s)', async (label, viewport, caption) => {
    const context = await site.newContext(viewport);
    const page = await site.newPage({ context });
    if (label === 'desktop') await signUpOwner(page);
    else {
      // logIn only presses Login: the next page is opened once the session is made (opening it at once
      // could cancel the login's request, and the upload page then asked a signed-out visitor to log in).
      await logIn(page, 'owner', 'owner-password');
      await page.waitForURL('**/personal');
    }
    // A slow uplink (about 1.5 MB/s), so the file is still on its way when the network drops.
    const proxy = await slowUplink(site.server.baseUrl, 1_500_000);
    await page.goto(`${proxy.baseUrl}/personal/upload-pictures`);
    await waitForShell(page);
    const photo = await noiseJpeg(2400, 1800);
    const tusRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/uploads/')) tusRequests.push(`${request.method()} ${request.headers()['upload-offset'] ?? ''}`.trim());
    });
    await page.getByLabel('Choose pictures or videos, or drop them here').setInputFiles({ name: `${caption}.jpg`, mimeType: 'image/jpeg', buffer: photo });
    const row = page.getByTestId('upload-list').locator('li').first();
    await expect.poll(() => row.getByLabel('Year').inputValue()).toBe('2020');

    await page.getByRole('button', { name: 'Upload' }).click();
    // A third of the file has reached the site: the phone loses its network (the browser goes offline
    // and the connection carrying the file drops).
    await expect.poll(() => proxy.uploaded(), { timeout: 30_000 }).toBeGreaterThan(photo.length / 3);
    await context.setOffline(true);
    proxy.cut();
    await row.getByText('Resuming…').waitFor();
    await site.screenshot(page, `uploads-resuming-${label}`, { fullPage: true });
    await page.waitForTimeout(1000);
    await context.setOffline(false);

    await page.getByRole('status').getByText(`${caption}.jpg: Uploaded`).waitFor({ timeout: 60_000 });
    // One creation, a HEAD for the server's offset after the drop, and a PATCH going on from there (not from 0).
    expect(tusRequests.filter((r) => r === 'POST')).toHaveLength(1);
    expect(tusRequests).toContain('HEAD');
    const resumedFrom = tusRequests.filter((r) => r.startsWith('PATCH ')).map((r) => Number(r.slice(6)));
    expect(resumedFrom[0]).toBe(0);
    expect(Math.max(...resumedFrom)).toBeGreaterThan(0);
    expect(await servedOriginalSha(page, caption)).toBe(createHash('sha256').update(photo).digest('hex'));
    await context.close();
    await proxy.close();
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)("the share sheet's POST lands its files on the upload page, ready to send (%s)", async (label, viewport) => {
    const context = await site.newContext(viewport, { serviceWorkers: 'allow' });
    const page = await site.newPage({ context });
    await logIn(page, 'owner', 'owner-password');
    await page.waitForURL('**/personal');
    // The installed app's manifest names the share target.
    const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as { share_target?: unknown };
    expect(manifest.share_target).toEqual({
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', files: [{ name: 'files', accept: ['image/*', 'video/*'] }] },
    });
    await serviceWorkerControls(page);

    // What Android does on Share -> the site: a navigation POSTing the files as multipart to the action.
    const shared = await sharp({ create: { width: 320, height: 240, channels: 3, background: label === 'phone' ? '#3366aa' : '#aa6633' } })
      .jpeg()
      .withExifMerge({ IFD2: { DateTimeOriginal: '2022:05:06 12:00:00' } })
      .toBuffer();
    const name = `shared-${label}.jpg`;
    await page.evaluate(
      ({ bytes, fileName }) => {
        const form = document.createElement('form');
        form.method = 'POST';
        form.enctype = 'multipart/form-data';
        form.action = '/share-target';
        const input = document.createElement('input');
        input.type = 'file';
        input.name = 'files';
        const files = new DataTransfer();
        files.items.add(new File([new Uint8Array(bytes)], fileName, { type: 'image/jpeg' }));
        input.files = files.files;
        const title = document.createElement('input');
        title.name = 'title';
        title.value = 'From the phone';
        form.append(input, title);
        document.body.append(form);
        form.submit();
      },
      { bytes: [...shared], fileName: name },
    );
    await page.waitForURL(/\/personal\/upload-pictures\?shared=1$/);
    const row = page.getByTestId('upload-list').locator('li').first();
    await row.getByText(name).waitFor();
    await expect.poll(() => row.getByLabel('Caption').inputValue()).toBe(`shared-${label}`);
    await expect.poll(() => row.getByLabel('Year').inputValue()).toBe('2022');
    await site.screenshot(page, `uploads-shared-${label}`, { fullPage: true });
    // Taken out of the cache: a reload does not offer them twice.
    expect(await page.evaluate(async () => (await (await caches.open('shared-files')).keys()).length)).toBe(0);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').getByText(`${name}: Uploaded`).waitFor({ timeout: 30_000 });
    expect(await servedOriginalSha(page, `shared-${label}`)).toBe(createHash('sha256').update(shared).digest('hex'));
    await context.close();
  });
});
