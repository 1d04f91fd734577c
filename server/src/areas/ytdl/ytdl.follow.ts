import { promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

const CHUNK = 1024 * 1024;
/** Looked at again after this long without a sign from the writer (a write may come without one). */
const RECHECK_MS = 200;

type Outcome = { size: number } | { error: Error };

/**
 * A file yt-dlp is still writing, sent from its first byte while it grows (like `tail -f`, but to an
 * exact end): a read takes whatever is there; when nothing new is there it waits for the writer's next
 * sign (a progress line, its exit) or a short while, and reads again. It ends only when the service
 * says the file is complete, at exactly the size it says. A failure, a cancel, or a file that shrinks
 * (the writer started over) ends it with an error instead, so the answer is cut off and the receiver
 * sees a failed download, never a shortened file that looks complete.
 *
 * The handle is opened while yt-dlp writes under its temporary name: the rename when it is done and
 * the deletion of the folder afterwards do not change what is read. (No library on npm follows a
 * file to a known end and fails on truncation; log tailers restart or skip instead.)
 */
export class GrowingFile {
  private outcome: Outcome | null = null;
  private wakers = new Set<() => void>();
  private handedOut = false;
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    /** The temporary name yt-dlp writes under. */
    readonly path: string,
  ) {}

  static async open(file: string): Promise<GrowingFile> {
    return new GrowingFile(await fs.open(file, 'r'), file);
  }

  /** The open file's identity, to tell whether the finished file is this one or a copy made from it. */
  stat(): Promise<Stats> {
    return this.handle.stat();
  }

  /** The writer wrote something. */
  grew(): void {
    this.wake();
  }

  /** The writer is done and the file has `size` bytes. */
  complete(size: number): void {
    this.outcome ??= { size };
    this.wake();
  }

  /** The download failed or was cancelled: a reader stops with `error`. */
  fail(error: Error): void {
    this.outcome ??= { error };
    this.wake();
  }

  /** Closes the file unless a reader owns it (the reader closes it when it stops). */
  async close(): Promise<void> {
    if (this.handedOut || this.closed) return;
    this.closed = true;
    await this.handle.close();
  }

  /**
   * Hands the file's bytes, from the first and following it as it grows, to `write` in order; resolves
   * once the last byte is written, rejects when the download fails or `write` does. Once: the pump owns
   * the handle and closes it. Two buffers take turns (one being read into while `write` sends the
   * other) and are used again, so sending a file allocates nothing per chunk: a fresh megabyte per
   * read made the garbage collector run every few dozen megabytes during a download.
   */
  async pump(write: (chunk: Buffer) => Promise<void>): Promise<void> {
    if (this.handedOut || this.closed) throw new Error('the file was handed out already');
    this.handedOut = true;
    const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
    let position = 0;
    let sending: Promise<void> = Promise.resolve();
    try {
      for (let turn = 0; ; turn ^= 1) {
        const chunk = await this.next(position, buffers[turn] as Buffer);
        // The buffer read into now was last sent two turns ago: that write is done (awaited below).
        await sending;
        if (!chunk) return;
        position += chunk.length;
        sending = write(chunk);
      }
    } finally {
      // A write still in flight when reading failed: settle it before the handle goes.
      await sending.catch(() => undefined);
      await this.handle.close();
    }
  }

  /** The bytes after `position` (read into `buffer`), waiting for them if the writer has not written them yet; null at the end. */
  private async next(position: number, buffer: Buffer): Promise<Buffer | null> {
    for (;;) {
      // Read before the read: whatever was written before the writer was done is in the file then.
      const outcome = this.outcome;
      if (outcome && 'error' in outcome) throw outcome.error;
      const { bytesRead } = await this.handle.read(buffer, 0, CHUNK, position);
      if (bytesRead > 0) {
        if (outcome && position + bytesRead > outcome.size) throw new Error('the file is longer than yt-dlp said');
        return buffer.subarray(0, bytesRead);
      }
      if (outcome) {
        if (position !== outcome.size) throw new Error(`the file ended at ${position} of ${outcome.size} bytes`);
        return null;
      }
      if ((await this.handle.stat()).size < position) throw new Error('the file was written again from the start');
      await this.changed();
    }
  }

  /** Resolves at the writer's next sign, or after a short while. */
  private changed(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, RECHECK_MS);
      this.wakers.add(done);
    });
  }

  private wake() {
    for (const waker of [...this.wakers]) waker();
  }
}
