import { execFile } from 'node:child_process';
import dns from 'node:dns';
import { mkdtempSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ytdlMessages, type YtdlFormat, type YtdlProgress } from '@site/contracts';
import { isPrivateAddress } from '../../src/areas/ytdl/ytdl.guard.ts';
import { contentDisposition } from '../../src/media/storage.ts';
import { REFERENCE_HOST } from '../../src/net/address-guard.ts';
import { parseLine, streamsAsWritten } from '../../src/areas/ytdl/ytdl.runner.ts';
import { YtdlService, ytdlService, ytdlTempRoot } from '../../src/areas/ytdl/ytdl.service.ts';
import { callerFor, cookieFor, createUser, databases, postJson, refusal, testConfig, useTestServer } from '../helpers.ts';
import { makeClip, serveMedia, tempFolder, type MediaServer } from './ytdl.fixture.ts';
import { settled } from '../notifications/push-helpers.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function codecs(bytes: Buffer, dir: string): Promise<string[]> {
  const file = path.join(dir, `probe-${Date.now()}`);
  await fs.writeFile(file, bytes);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name', '-of', 'csv=p=0', file]);
  await fs.rm(file);
  return stdout.trim().split('\n').sort();
}

async function entries(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch(() => []);
}

/** Waits until every temporary folder is deleted (the file is deleted just after its answer ends). */
async function allRemoved(root: string): Promise<string[]> {
  for (let i = 0; i < 400; i++) {
    const left = await entries(root);
    if (left.length === 0) return left;
    await sleep(50);
  }
  return entries(root);
}

/** Reads (a job's progress, say) until `done` says so (the test's own time limit ends a wait that never gets there). */
async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await sleep(50);
  }
}

/** The app on a real port (once per app): streaming is about what reaches a socket, not inject's buffer. */
async function baseOf(app: FastifyInstance): Promise<string> {
  const address = app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/** The rest of a body as it arrives; rejects when the answer is cut off before its end. */
async function readRest(reader: ReadableStreamDefaultReader<Uint8Array>, chunks: Uint8Array[]): Promise<Buffer> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
  }
}

/** Made at load time: the servers' DATA_DIRs are named while the describes are collected. */
const dir = mkdtempSync(path.join(os.tmpdir(), 'ytdl-test-'));
let clip: string;
let clipBytes: Buffer;
let media: MediaServer;
/** A host serving VP9 video with Opus audio in WebM, as YouTube serves a browser. */
let webm: MediaServer;

beforeAll(async () => {
  clip = await makeClip(dir, 2);
  clipBytes = await fs.readFile(clip);
  media = await serveMedia(clip);
  webm = await serveMedia(await makeClip(dir, 2, 'clip.webm', 'vp9-opus'));
}, 60_000);
afterAll(async () => {
  await media?.close();
  await webm?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe.each(databases)('YT-DL with private hosts allowed (%s)', (kind) => {
  const dataDir = () => path.join(dir, `data-${kind}`);
  const s = useTestServer(kind, { DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true', DATA_DIR: path.join(dir, `data-${kind}`), DOWNLOAD_CONCURRENCY: '2' });
  const tempRoot = () => ytdlTempRoot(dataDir());

  /** A new friend's job run until it is ready or failed, with every state its progress showed ('…, streaming' when it could be fetched). */
  async function friendsJobToEnd(url: string, format: YtdlFormat) {
    const user = await createUser(s.deps, 'friend', 1);
    const { token } = await s.deps.sessions.create(user.id);
    const member = callerFor(s.deps, user);
    const { job } = await member.ytdl.start({ url, format });
    const seen = new Set<string>();
    const polls: YtdlProgress[] = [];
    const ready = await until(
      () => member.ytdl.progress({ job }),
      (p) => (polls.push(p), seen.add(p.streaming ? `${p.state}, streaming` : p.state), p.state === 'ready' || p.state === 'failed'),
    );
    return { token, member, job, ready, seen, polls };
  }

  it('tells the title of a link and the yt-dlp version', async () => {
    const member = callerFor(s.deps, await createUser(s.deps, 'friend', 1));
    expect(await member.ytdl.info({ url: media.url('Caf%C3%A9%20clip%20%E2%9C%93.mp4') })).toEqual({ title: 'Café clip ✓' });
    expect((await member.ytdl.version()).version).toMatch(/^\d{4}\.\d{2}\.\d{2}/);
  });

  it('answers /api/ytdl/download with the MP4, the title in a header and a UTF-8 file name; nothing stays on disk', async () => {
    const cookie = await cookieFor(s.deps, 1);
    const res = await postJson(s.app, '/api/ytdl/download', { url: media.url('Caf%C3%A9%20clip%20%E2%9C%93.mp4'), format: 'mp4' }, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(decodeURIComponent(String(res.headers['x-video-title']))).toBe('Café clip ✓');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Caf_ clip _.mp4"; filename*=UTF-8''Caf%C3%A9%20clip%20%E2%9C%93.mp4`);
    expect(res.headers['cache-control'], 'a member\'s file: no cache keeps it').toBe('no-store');
    expect(res.rawPayload.equals(clipBytes)).toBe(true);
    expect(await allRemoved(tempRoot())).toEqual([]);
  });

  it('answers the audio track alone as M4A', async () => {
    const cookie = await cookieFor(s.deps, 1);
    const res = await postJson(s.app, '/api/ytdl/download', { url: media.url('song.mp4'), format: 'm4a' }, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mp4');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''song.m4a`);
    expect(await codecs(res.rawPayload, dir)).toEqual(['aac,audio']);
    expect(await allRemoved(tempRoot())).toEqual([]);
  });

  it('runs a job: start, progress to ready, the file once from GET /api/ytdl/file/:job, then it is gone', async () => {
    const { token, member, job, ready, seen, polls } = await friendsJobToEnd(media.url('slow/job.mp4'), 'mp4');
    expect(ready).toMatchObject({ state: 'ready', percent: 100, title: 'job', fileName: 'job.mp4', error: null, totalBytes: clipBytes.length, streaming: false });
    // What the page shows on the way, from yt-dlp's progress lines: part of the file at some speed, of its size.
    const midway = polls.find((p) => p.state === 'downloading' && p.percent !== null && p.percent > 0 && p.percent < 100 && p.speed !== null);
    expect(midway).toMatchObject({ totalBytes: clipBytes.length, speed: expect.any(Number) as number, codecs: null });
    expect(midway!.downloadedBytes).toBeGreaterThan(0);
    expect(midway!.downloadedBytes).toBeLessThan(clipBytes.length);
    // The file is probed once yt-dlp is done: H.264 and AAC, as made.
    expect(ready.codecs).toEqual({ video: 'h264', audio: 'aac' });
    // An MP4 that yt-dlp writes as it is could be fetched while it downloaded; nobody did, so it waited.
    expect(seen.has('downloading, streaming')).toBe(true);
    const file = await s.app.inject({ method: 'GET', url: `/api/ytdl/file/${job}`, headers: { cookie: `sid=${token}` } });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(clipBytes)).toBe(true);
    await until(() => member.ytdl.progress({ job }), (p) => p.state === 'sent');
    expect(await allRemoved(tempRoot())).toEqual([]);
    const again = await s.app.inject({ method: 'GET', url: `/api/ytdl/file/${job}`, headers: { cookie: `sid=${token}` } });
    expect([again.statusCode, again.json()]).toEqual([404, { message: ytdlMessages.noJob }]);
    // Another member cannot see or fetch it.
    const other = callerFor(s.deps, await createUser(s.deps, 'other', 1));
    expect(await refusal(other.ytdl.progress({ job }))).toEqual({ code: 'NOT_FOUND', message: ytdlMessages.noJob });
  });

  it('tells a member whose page stopped asking that the download is ready (ytdl.done), and not one who watched it to the end', async () => {
    const inboxOf = async (userId: number) => {
      await settled(s.db);
      return s.db
        .selectFrom('notification_inbox as i')
        .innerJoin('notification_events as e', 'e.id', 'i.event_id')
        .select(['e.kind', 'e.title', 'e.body', 'e.url'])
        .where('i.user_id', '=', userId)
        .execute();
    };
    const service = ytdlService(s.deps);
    // Neither file is fetched here: both jobs are cancelled at the end to free their members' slots
    // (the next test's members get the same ids).
    const jobs: { member: ReturnType<typeof callerFor>; job: string }[] = [];
    try {
      // Watched to the end: every progress call is recent, so nothing is news.
      const watched = await friendsJobToEnd(media.url('slow/watched.mp4'), 'mp4');
      jobs.push(watched);
      expect(watched.ready.state).toBe('ready');
      const watcher = await s.db.selectFrom('users').select('id').where('name', '=', 'friend').executeTakeFirstOrThrow();
      expect(await inboxOf(watcher.id)).toEqual([]);
      // Started, then the page was left: ready is news for the inbox (and a push).
      service.awayMs = 200;
      const away = await createUser(s.deps, 'away', 1);
      const member = callerFor(s.deps, away);
      const { job } = await member.ytdl.start({ url: media.url('slow/away.mp4'), format: 'mp4' });
      jobs.push({ member, job });
      // Nobody asks for its progress until the inbox has it (asking would count as being on the page).
      const told = await until(() => inboxOf(away.id), (rows) => rows.length > 0);
      expect(told).toEqual([{ kind: 'ytdl.done', title: 'Your download is ready', body: 'away', url: '/personal/youtube' }]);
      expect((await member.ytdl.progress({ job })).state).toBe('ready');
    } finally {
      service.awayMs = 15_000;
      for (const { member, job } of jobs) await member.ytdl.cancel({ job });
    }
  });

  it('cancel kills the download and deletes its temporary files', async () => {
    const member = callerFor(s.deps, await createUser(s.deps, 'friend', 1));
    const { job } = await member.ytdl.start({ url: media.url('slow/cancel.mp4'), format: 'mp4' });
    await until(() => member.ytdl.progress({ job }), (p) => p.state === 'downloading' && p.downloadedBytes > 0);
    const folder = ytdlService(s.deps).tempDirOf(job);
    expect(folder).not.toBeNull();
    expect((await entries(folder as string)).length).toBeGreaterThan(0);
    expect(await member.ytdl.cancel({ job })).toEqual({ cancelled: true });
    expect(await entries(tempRoot())).toEqual([]);
    expect((await member.ytdl.progress({ job })).state).toBe('cancelled');
    // The slot is free again.
    const next = await member.ytdl.start({ url: media.url('slow/next.mp4'), format: 'mp4' });
    await member.ytdl.cancel(next);
  });

  it('cancels a /api/ytdl/download whose caller hangs up before the file can be sent', async () => {
    const user = await createUser(s.deps, 'friend', 1);
    const cookie = `sid=${(await s.deps.sessions.create(user.id)).token}`;
    const base = await baseOf(s.app);
    const hangUp = new AbortController();
    const request = fetch(`${base}/api/ytdl/download`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      // M4A from an MP4: ffmpeg extracts the audio afterwards, so nothing can be sent before yt-dlp is done.
      body: JSON.stringify({ url: media.url('slow/hang-up.mp4'), format: 'm4a' }),
      signal: hangUp.signal,
    }).catch((error: unknown) => error);
    // Wait until yt-dlp is writing into its folder, then hang up.
    for (;;) {
      const folders = await entries(tempRoot());
      if (folders.length > 0 && (await entries(path.join(tempRoot(), folders[0] as string))).length > 0) break;
      await sleep(50);
    }
    hangUp.abort();
    expect(await request).toBeInstanceOf(Error);
    expect(await allRemoved(tempRoot())).toEqual([]);
    // The member's slot is free again.
    const member = callerFor(s.deps, user);
    const next = await member.ytdl.start({ url: media.url('slow/after.mp4'), format: 'mp4' });
    await member.ytdl.cancel(next);
  });

  it('streams /api/ytdl/download while yt-dlp is still writing: the first bytes come before the video host has sent the rest', async () => {
    const cookie = await cookieFor(s.deps, 1);
    const res = await fetch(`${await baseOf(s.app)}/api/ytdl/download`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ url: media.url('held/Streamed%20clip.mp4'), format: 'mp4' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Streamed clip.mp4"; filename*=UTF-8''Streamed%20clip.mp4`);
    expect(decodeURIComponent(res.headers.get('x-video-title') ?? '')).toBe('Streamed clip');
    // The size is not known while the file grows: the answer is chunked, and only its proper end completes it.
    expect(res.headers.get('content-length')).toBeNull();
    const events: string[] = [];
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    // The video host holds the last quarter back until the test lets it go: if the answer waited for
    // yt-dlp to finish, these bytes could never come and the test would fail at its time limit.
    events.push(`client has ${first.value && first.value.length > 0 ? 'the first bytes' : 'nothing'}; the host holds back ${media.holding() > 0 ? 'the rest' : 'nothing'}`);
    media.release();
    events.push('the host sends the rest');
    const body = await readRest(reader, first.value ? [first.value] : []);
    events.push('client has the whole file');
    expect(events).toEqual([
      'client has the first bytes; the host holds back the rest',
      'the host sends the rest',
      'client has the whole file',
    ]);
    expect(body.equals(clipBytes)).toBe(true);
    expect(await allRemoved(tempRoot())).toEqual([]);
  });

  it('sends a job to GET /api/ytdl/file/:job while it downloads; Cancel cuts that answer off, stops yt-dlp and deletes its files', async () => {
    const user = await createUser(s.deps, 'friend', 1);
    const cookie = `sid=${(await s.deps.sessions.create(user.id)).token}`;
    const member = callerFor(s.deps, user);
    const { job } = await member.ytdl.start({ url: media.url('held/page.mp4'), format: 'mp4' });
    const streaming = await until(() => member.ytdl.progress({ job }), (p) => p.streaming || p.state === 'failed' || p.state === 'ready');
    expect(streaming).toMatchObject({ state: 'downloading', streaming: true, fileName: 'page.mp4', error: null });
    const res = await fetch(`${await baseOf(s.app)}/api/ytdl/file/${job}`, { headers: { cookie } });
    expect([res.status, res.headers.get('content-disposition')]).toEqual([200, `attachment; filename="page.mp4"; filename*=UTF-8''page.mp4`]);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(first.value?.length).toBeGreaterThan(0);
    // Still downloading (the host holds the rest back), fetched once: the page goes on showing progress.
    expect(await member.ytdl.progress({ job })).toMatchObject({ state: 'downloading', streaming: false });
    const again = await s.app.inject({ method: 'GET', url: `/api/ytdl/file/${job}`, headers: { cookie } });
    expect([again.statusCode, again.json()]).toEqual([404, { message: ytdlMessages.noJob }]);

    expect(await member.ytdl.cancel({ job })).toEqual({ cancelled: true });
    const chunks = first.value ? [first.value] : [];
    await expect(readRest(reader, chunks)).rejects.toThrow();
    expect(Buffer.concat(chunks).length).toBeLessThan(clipBytes.length);
    expect(await entries(tempRoot())).toEqual([]);
    expect((await member.ytdl.progress({ job })).state).toBe('cancelled');
    // yt-dlp is gone: its connections to the host are closed without the rest ever being sent.
    await until(() => media.holding(), (n) => n === 0);
  });

  it('cancels a /api/ytdl/download whose caller hangs up mid-stream: yt-dlp stops and its files go', async () => {
    const user = await createUser(s.deps, 'friend', 1);
    const cookie = `sid=${(await s.deps.sessions.create(user.id)).token}`;
    const hangUp = new AbortController();
    const res = await fetch(`${await baseOf(s.app)}/api/ytdl/download`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ url: media.url('held/hang-up.mp4'), format: 'mp4' }),
      signal: hangUp.signal,
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).value?.length).toBeGreaterThan(0);
    hangUp.abort();
    expect(await allRemoved(tempRoot())).toEqual([]);
    await until(() => media.holding(), (n) => n === 0);
    // The member's slot is free again.
    const member = callerFor(s.deps, user);
    const next = await member.ytdl.start({ url: media.url('slow/after.mp4'), format: 'mp4' });
    await member.ytdl.cancel(next);
  });

  it('cuts off an answer whose download fails mid-stream (a failed download, not a short file) and tells the page why', async () => {
    const user = await createUser(s.deps, 'friend', 1);
    const cookie = `sid=${(await s.deps.sessions.create(user.id)).token}`;
    const member = callerFor(s.deps, user);
    const base = await baseOf(s.app);

    // The documented route: the body ends with an error, never as if complete.
    const res = await fetch(`${base}/api/ytdl/download`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ url: media.url('broken/post.mp4'), format: 'mp4' }),
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(first.value?.length).toBeGreaterThan(0);
    media.release();
    const chunks = first.value ? [first.value] : [];
    await expect(readRest(reader, chunks)).rejects.toThrow();
    expect(Buffer.concat(chunks).length).toBeLessThan(clipBytes.length);
    expect(await allRemoved(tempRoot())).toEqual([]);

    // The page's job: its fetch is cut off the same way, and its progress says why.
    const { job } = await member.ytdl.start({ url: media.url('broken/page.mp4'), format: 'mp4' });
    await until(() => member.ytdl.progress({ job }), (p) => p.streaming || p.state === 'failed');
    const file = await fetch(`${base}/api/ytdl/file/${job}`, { headers: { cookie } });
    const fileReader = (file.body as ReadableStream<Uint8Array>).getReader();
    expect((await fileReader.read()).value?.length).toBeGreaterThan(0);
    media.release();
    await expect(readRest(fileReader, [])).rejects.toThrow();
    const failed = await until(() => member.ytdl.progress({ job }), (p) => p.state !== 'downloading' && p.state !== 'processing');
    expect([failed.state, failed.error]).toEqual(['failed', ytdlMessages.unreachable]);
    expect(await allRemoved(tempRoot())).toEqual([]);
  });

  it('keeps M4A extracted from a video for when yt-dlp is done: it is never sent while it downloads', async () => {
    const { token, job, ready, seen } = await friendsJobToEnd(media.url('slow/audio.mp4'), 'm4a');
    expect(ready).toMatchObject({ state: 'ready', fileName: 'audio.m4a', error: null, codecs: { video: null, audio: 'aac' } });
    expect(seen.has('downloading')).toBe(true);
    expect([...seen].filter((state) => state.endsWith('streaming'))).toEqual([]);
    const file = await s.app.inject({ method: 'GET', url: `/api/ytdl/file/${job}`, headers: { cookie: `sid=${token}` } });
    expect([file.statusCode, file.headers['content-length']]).toEqual([200, String(file.rawPayload.length)]);
    expect(await codecs(file.rawPayload, dir)).toEqual(['aac,audio']);
    expect(await allRemoved(tempRoot())).toEqual([]);
  });

  it('delivers a VP9/Opus WebM as MP4 as it is (remuxed, not re-encoded) and tells the page so', async () => {
    const { token, member, job, ready } = await friendsJobToEnd(webm.url('Web%20clip.webm'), 'mp4');
    expect(ready).toMatchObject({ state: 'ready', fileName: 'Web clip.mp4', error: null, codecs: { video: 'vp9', audio: 'opus' } });
    const file = await s.app.inject({ method: 'GET', url: `/api/ytdl/file/${job}`, headers: { cookie: `sid=${token}` } });
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(await codecs(file.rawPayload, dir)).toEqual(['opus,audio', 'vp9,video']);
    expect((await member.ytdl.progress({ job })).codecs, 'still told once sent').toEqual({ video: 'vp9', audio: 'opus' });
  });

  it('frees the slot of a failed download as it fails: a retry the moment the page shows "failed" starts', async () => {
    const member = callerFor(s.deps, await createUser(s.deps, 'friend', 1));
    // The failed job's folder is deleted slowly here (a busy disk): the retry must not wait for that.
    let letGo = () => {};
    const slowDisk = new Promise<void>((resolve) => (letGo = resolve));
    const rm = fs.rm.bind(fs);
    const spy = vi.spyOn(fs, 'rm').mockImplementation(async (target, options) => {
      if (String(target).startsWith(tempRoot())) await slowDisk;
      return rm(target, options);
    });
    try {
      const { job } = await member.ytdl.start({ url: media.url('gone.html'), format: 'mp4' });
      const failed = await until(() => member.ytdl.progress({ job }), (p) => p.state === 'failed' || p.state === 'ready');
      expect([failed.state, failed.error]).toEqual(['failed', ytdlMessages.unreachable]);
      const retry = await member.ytdl.start({ url: media.url('slow/retry.mp4'), format: 'mp4' });
      letGo();
      expect(await member.ytdl.cancel(retry)).toEqual({ cancelled: true });
    } finally {
      letGo();
      spy.mockRestore();
    }
    expect(await allRemoved(tempRoot())).toEqual([]);
  });

  it('allows one download per member and DOWNLOAD_CONCURRENCY in all, with a clear 429', async () => {
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map(async (name) => callerFor(s.deps, await createUser(s.deps, name, 1))));
    const first = await a!.ytdl.start({ url: media.url('slow/a.mp4'), format: 'mp4' });
    expect(await refusal(a!.ytdl.start({ url: media.url('slow/a2.mp4'), format: 'mp4' }))).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: ytdlMessages.busyMember,
    });
    const second = await b!.ytdl.start({ url: media.url('slow/b.mp4'), format: 'm4a' });
    expect(await refusal(c!.ytdl.start({ url: media.url('slow/c.mp4'), format: 'mp4' }))).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: ytdlMessages.busyServer(2),
    });
    const cookie = await cookieFor(s.deps, 1, 'd');
    const busy = await postJson(s.app, '/api/ytdl/download', { url: media.url('d.mp4'), format: 'mp4' }, cookie);
    expect([busy.statusCode, busy.json()]).toEqual([429, { message: ytdlMessages.busyServer(2) }]);
    await a!.ytdl.cancel(first);
    await b!.ytdl.cancel(second);
    expect(await entries(tempRoot())).toEqual([]);
  });

  it('gives a readable 4xx for a link that is not http, not a link, or not a video', async () => {
    const cookie = await cookieFor(s.deps, 1);
    const serverOnline = await dns.promises.lookup(REFERENCE_HOST).then(
      () => true,
      () => false,
    );
    const cases: [unknown, number, string][] = [
      [{ url: 'file:///etc/passwd', format: 'mp4' }, 400, ytdlMessages.notHttp],
      [{ url: 'ftp://127.0.0.1/clip.mp4', format: 'mp4' }, 400, ytdlMessages.notHttp],
      [{ url: 'javascript:alert(1)', format: 'mp4' }, 400, ytdlMessages.notHttp],
      [{ url: 'not a link at all', format: 'mp4' }, 400, ytdlMessages.notUrl],
      [{ url: '', format: 'mp4' }, 400, 'Paste a video link first'],
      [{ url: media.url('clip.mp4'), format: 'avi' }, 400, 'format: Format must be mp4 (video) or m4a (audio)'],
      // A host that does not exist; on a machine with no internet at all the server says that instead, once (ytdl.offline.test.ts).
      serverOnline
        ? [{ url: 'http://no-such-host.invalid/clip.mp4', format: 'mp4' }, 400, ytdlMessages.unknownHost]
        : [{ url: 'http://no-such-host.invalid/clip.mp4', format: 'mp4' }, 503, ytdlMessages.noInternet],
      [{ url: media.url('missing.html'), format: 'mp4' }, 400, ytdlMessages.unreachable],
      [{ url: `${media.url('clip.mp4')}\u0000`, format: 'mp4' }, 400, 'URL may not contain control characters'],
    ];
    for (const [body, status, message] of cases) {
      const res = await postJson(s.app, '/api/ytdl/download', body, cookie);
      expect([res.statusCode, res.json()]).toEqual([status, { message }]);
    }
    const info = await postJson(s.app, '/api/ytdl/info', { url: 'gopher://x' }, cookie);
    expect([info.statusCode, info.json()]).toEqual([400, { message: ytdlMessages.notHttp }]);
    expect(await entries(tempRoot())).toEqual([]);
  });

  it('refuses the HTTP routes to anonymous callers and pending accounts', async () => {
    const body = { url: media.url('clip.mp4'), format: 'mp4' };
    expect((await postJson(s.app, '/api/ytdl/download', body)).statusCode).toBe(401);
    const pending = await cookieFor(s.deps, 0, 'pending');
    const res = await postJson(s.app, '/api/ytdl/download', body, pending);
    expect([res.statusCode, res.json().preauth]).toEqual([403, true]);
    const job = '00000000-0000-4000-8000-000000000000';
    expect((await s.app.inject({ method: 'GET', url: `/api/ytdl/file/${job}` })).statusCode).toBe(401);
    expect((await s.app.inject({ method: 'GET', url: `/api/ytdl/file/${job}`, headers: { cookie: pending } })).statusCode).toBe(403);
  });
});

describe.each(databases)('YT-DL with the default settings (%s)', (kind) => {
  const s = useTestServer(kind, { DATA_DIR: path.join(dir, `default-${kind}`) });

  it('refuses loopback, private, link-local and metadata addresses before anything is fetched', async () => {
    const cookie = await cookieFor(s.deps, 1);
    const before = media.requests.length;
    for (const url of [
      media.url('clip.mp4'),
      'http://localhost:8080/clip.mp4',
      'http://10.0.0.7/clip.mp4',
      'http://192.168.1.1/clip.mp4',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:8080/clip.mp4',
      'http://[::ffff:127.0.0.1]/clip.mp4',
      'http://0.0.0.0/clip.mp4',
    ]) {
      const res = await postJson(s.app, '/api/ytdl/download', { url, format: 'mp4' }, cookie);
      expect([url, res.statusCode, res.json()]).toEqual([url, 400, { message: ytdlMessages.privateHost }]);
    }
    expect(media.requests.length).toBe(before);
  });
});

describe('YT-DL without yt-dlp installed', () => {
  const s = useTestServer('pglite', { YTDLP_PATH: '/nonexistent/yt-dlp', DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true', DATA_DIR: path.join(dir, 'missing') });

  it('says the downloader is missing (503), and the version is null', async () => {
    const cookie = await cookieFor(s.deps, 1);
    const res = await postJson(s.app, '/api/ytdl/info', { url: media.url('clip.mp4') }, cookie);
    expect([res.statusCode, res.json()]).toEqual([503, { message: ytdlMessages.missing }]);
    const member = callerFor(s.deps, await createUser(s.deps, 'friend', 1));
    expect(await member.ytdl.version()).toEqual({ version: null, released: null, ageDays: null, outdated: false });
    const { job } = await member.ytdl.start({ url: media.url('clip.mp4'), format: 'mp4' });
    const failed = await until(() => member.ytdl.progress({ job }), (p) => p.state === 'failed');
    expect(failed.error).toBe(ytdlMessages.missing);
  });
});

describe('the guard proxy', () => {
  it('refuses a redirect to a forbidden address, and never connects there', async () => {
    // 127.0.0.1 plays a public host here and 127.0.0.2 the private network behind the server.
    const secret = await serveMedia(clip, { host: '127.0.0.2' });
    const root = await tempFolder('ytdl-redirect-');
    const limits = { ...testConfig().download, allowPrivateHosts: false };
    const service = new YtdlService(limits, root, { isBlocked: (address) => address === '127.0.0.2' });
    try {
      const hidden = secret.url('secret.mp4').replace('127.0.0.1', '127.0.0.2');
      const direct = await refusal(
        service.start(1, { url: hidden, format: 'mp4' }).catch((e: unknown) => {
          throw new TRPCError({ code: 'BAD_REQUEST', message: (e as Error).message });
        }),
      );
      expect(direct.message).toBe(ytdlMessages.privateHost);
      const { job } = await service.start(1, { url: media.url(`redirect?to=${encodeURIComponent(hidden)}`), format: 'mp4' });
      const failed = await until(() => service.progress(1, job), (p) => p.state === 'failed' || p.state === 'ready');
      expect([failed.state, failed.error]).toEqual(['failed', ytdlMessages.privateHost]);
      expect(secret.requests).toEqual([]);
      // The job's state turns 'failed' first (the member may start again at once), then its folder goes.
      await expect.poll(() => entries(root), { timeout: 10_000 }).toEqual([]);
    } finally {
      await service.stop();
      await secret.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  it('judges addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.0.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', '2002:c0a8:0101::1']) {
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    }
    for (const a of ['8.8.8.8', '142.250.74.46', '2a00:1450:4001:82b::200e', '::ffff:8.8.8.8']) {
      expect([a, isPrivateAddress(a)]).toEqual([a, false]);
    }
  });

  it('writes RFC 5987 file names', () => {
    expect(contentDisposition("it's (a) *test*.mp4")).toBe(`attachment; filename="it's (a) *test*.mp4"; filename*=UTF-8''it%27s%20%28a%29%20%2Atest%2A.mp4`);
  });
});

describe('what is sent while yt-dlp writes it', () => {
  it('only a single plain HTTP(S) file already in the wanted container that no post-processor touches', () => {
    const mp4 = { ext: 'mp4', protocol: 'https' };
    expect(streamsAsWritten('mp4', mp4)).toBe(true);
    expect(streamsAsWritten('mp4', { ...mp4, protocol: 'http', stretched_ratio: 1, is_live: false })).toBe(true);
    // A merge of video and audio, HLS or DASH fragments, a live stream: ffmpeg works on them afterwards.
    expect(streamsAsWritten('mp4', { ...mp4, protocol: 'https+https' })).toBe(false);
    expect(streamsAsWritten('mp4', { ...mp4, protocol: 'm3u8_native' })).toBe(false);
    expect(streamsAsWritten('mp4', { ...mp4, protocol: 'http_dash_segments' })).toBe(false);
    expect(streamsAsWritten('mp4', { ...mp4, is_live: true })).toBe(false);
    // Remuxed into MP4, or a stretched picture fixed up.
    expect(streamsAsWritten('mp4', { ext: 'webm', protocol: 'https' })).toBe(false);
    expect(streamsAsWritten('mp4', { ...mp4, stretched_ratio: 1.33 })).toBe(false);
    expect(streamsAsWritten('mp4', { protocol: 'https' })).toBe(false);
    // M4A: AAC left alone by -x; a DASH M4A is fixed up; audio from a video is extracted.
    expect(streamsAsWritten('m4a', { ext: 'm4a', protocol: 'https', acodec: 'mp4a.40.2' })).toBe(true);
    expect(streamsAsWritten('m4a', { ext: 'm4a', protocol: 'https', acodec: 'mp4a.40.2', container: 'm4a_dash' })).toBe(false);
    expect(streamsAsWritten('m4a', { ext: 'm4a', protocol: 'https', acodec: 'alac' })).toBe(false);
    expect(streamsAsWritten('m4a', { ext: 'm4a', protocol: 'https' })).toBe(false);
    expect(streamsAsWritten('m4a', { ext: 'mp4', protocol: 'https', acodec: 'mp4a.40.2' })).toBe(false);
  });

  it('reads the chosen format and the file being written from yt-dlp\'s lines', () => {
    expect(parseLine('@@S {"ext": "mp4", "protocol": "http", "container": "mp4_dash"}')).toEqual({
      kind: 'chosen',
      format: { ext: 'mp4', protocol: 'http', container: 'mp4_dash' },
    });
    expect(parseLine('@@S NA')).toBeNull();
    expect(parseLine('@@S {"ext": "mp4", "protocol": "http", "container": 7}'), 'a field of the wrong type: not trusted').toBeNull();
    expect(parseLine('@@P downloading 1024 41785 NA 619228.27 /data/tmp/ytdl/job-a b/media.mp4.part')).toEqual({
      kind: 'progress',
      status: 'downloading',
      downloaded: 1024,
      total: 41785,
      speed: 619228.27,
      file: '/data/tmp/ytdl/job-a b/media.mp4.part',
    });
    expect(parseLine('@@P finished 41785 41785 NA 4536392.6 NA')).toMatchObject({ status: 'finished', file: null });
  });
});
