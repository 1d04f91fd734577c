/**
 * Resumable uploads from the upload pages (tus 1.0.0 with tus-js-client): a file goes in PATCHes of up
 * to RESUMABLE_CHUNK_BYTES, a dropped connection goes on from the offset the server holds (asked with
 * HEAD), and the upload's URL is kept in localStorage (tus-js-client's fingerprint: name, type, size,
 * modified time, collection) so a reload finds it again when the same file is chosen. Loaded by the
 * upload pages on demand (import()), never with the shell.
 */
import { defaultOptions, Upload, type DetailedError, type PreviousUpload } from 'tus-js-client';
import { RESUMABLE_CHUNK_BYTES } from '@site/contracts/pictures';

export type ResumableState = 'sending' | 'resuming';

export type Sent = { ok: true; status: number; body: unknown } | { ok: false; status: number; message: string };

export type ResumableOptions = {
  /** The collection: RESUMABLE_PATH, or a guest link's. */
  endpoint: string;
  /** Caption, date, a guest's name: the fields of the one-request form. */
  fields: Record<string, string>;
  onProgress(fraction: number): void;
  /** 'resuming' from a dropped connection until the file is whole again. */
  onState(state: ResumableState): void;
};

/** How often a lost connection is tried again before the file is given up (the page says so; choosing it again resumes). */
const MAX_RESUMES = 30;

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** Resolves when the browser says it is online again, or after `ms`, whichever is first. */
function backOnline(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      window.removeEventListener('online', done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, isOffline() ? 60_000 : ms);
    window.addEventListener('online', done);
  });
}

/** The body of an answer as the server wrote it (JSON), else its text. */
function bodyOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Sends `file` resumably. An upload of the same file that this browser started before (a reload, a
 * closed tab) is resumed from the server's offset; one the server no longer has starts again.
 * `abort()` stops sending and forgets the upload on the server (DELETE).
 */
export function sendResumable(file: File, opts: ResumableOptions): { done: Promise<Sent>; abort(): Promise<void> } {
  let upload: Upload | null = null;
  let resumes = 0;
  let stopped = false;
  const done = new Promise<Sent>((resolve) => {
    upload = new Upload(file, {
      endpoint: opts.endpoint,
      chunkSize: RESUMABLE_CHUNK_BYTES,
      retryDelays: [0, 1000, 3000],
      metadata: { ...opts.fields, filename: file.name, filetype: file.type },
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => opts.onProgress(total > 0 ? sent / total : 0),
      // A refusal (4xx but a conflict or a lock) is final; anything else is tried again while online.
      onShouldRetry: (error: DetailedError) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        const retry = (status < 400 || status >= 500 || status === 409 || status === 423) && !isOffline();
        if (retry) opts.onState('resuming');
        return retry;
      },
      onSuccess: ({ lastResponse }) => {
        opts.onProgress(1);
        resolve({ ok: true, status: lastResponse.getStatus(), body: bodyOf(lastResponse.getBody()) });
      },
      onError: (error) => {
        const response = (error as DetailedError).originalResponse;
        const status = response?.getStatus() ?? 0;
        if (status >= 400 && status < 500 && status !== 409 && status !== 423) {
          const body = bodyOf(response?.getBody() ?? '') as { message?: unknown };
          resolve({ ok: false, status, message: typeof body?.message === 'string' ? body.message : `The upload failed (${status})` });
          return;
        }
        // The connection is gone (or the server did not answer): wait for it, then go on from the server's offset.
        if (stopped) return;
        if (++resumes > MAX_RESUMES) {
          resolve({ ok: false, status, message: 'The upload stopped: no connection to the site. Choose the file again to resume it.' });
          return;
        }
        opts.onState('resuming');
        void backOnline(Math.min(30_000, 1000 * 2 ** Math.min(resumes, 5))).then(() => {
          if (!stopped) upload?.start();
        });
      },
    });
    void (async () => {
      const previous = await upload!.findPreviousUploads().catch(() => [] as PreviousUpload[]);
      const latest = previous.sort((a, b) => (a.creationTime < b.creationTime ? 1 : -1))[0];
      if (latest) {
        opts.onState('resuming');
        upload!.resumeFromPreviousUpload(latest);
      }
      upload!.start();
    })();
  });
  return {
    done,
    async abort() {
      stopped = true;
      await upload?.abort(true).catch(() => {});
    },
  };
}

/** An upload this browser started and did not finish (a reload, a closed tab, a lost connection). */
export type Interrupted = { key: string; name: string; size: number; startedAt: string; url: string };

/** The unfinished uploads this browser remembers for `endpoint`, newest first. */
export async function interruptedUploads(endpoint: string): Promise<Interrupted[]> {
  // Outside a browser (tus-js-client's Node build, the page's unit tests) there is no storage to read.
  const storage = defaultOptions.urlStorage as Partial<typeof defaultOptions.urlStorage> | undefined;
  if (typeof storage?.findAllUploads !== 'function') return [];
  const all = await storage.findAllUploads().catch(() => [] as PreviousUpload[]);
  const base = new URL(endpoint, window.location.href).pathname;
  return all
    .filter((u) => u.uploadUrl !== null && new URL(u.uploadUrl, window.location.href).pathname.startsWith(base))
    .map((u) => ({ key: u.urlStorageKey, name: u.metadata.filename ?? 'A file', size: u.size ?? 0, startedAt: u.creationTime, url: u.uploadUrl ?? '' }))
    .sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1));
}

/** How much of an interrupted upload the server holds (0 to 1), or null when it no longer has it. */
export async function heldFraction(upload: Interrupted): Promise<number | null> {
  try {
    const res = await fetch(upload.url, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
    if (!res.ok) return null;
    const offset = Number(res.headers.get('upload-offset'));
    return upload.size > 0 ? offset / upload.size : 0;
  } catch {
    return 0;
  }
}

/** Forgets an interrupted upload here and on the server (its parts are removed at once, not after a day). */
export async function forgetUpload(upload: Interrupted): Promise<void> {
  await defaultOptions.urlStorage.removeUpload(upload.key).catch(() => {});
  await fetch(upload.url, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0' } }).catch(() => {});
}
