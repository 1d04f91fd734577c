import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../config.ts';

/** s3rver's own account: it checks every request's signature against it. */
const KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export type TestS3 = {
  /** Settings for a store in this server's bucket (a fresh prefix unless one is given). */
  settings(prefix?: string): S3Settings;
  /** The same settings as environment variables (MEDIA_STORE=s3 and the S3_* of README's table). */
  env(prefix?: string): Record<string, string>;
  endpoint: string;
  bucket: string;
  /** Multipart uploads begun and neither completed nor aborted (s3rver keeps each in a folder; it does not answer ListMultipartUploads). */
  openUploads(): string[];
  /** Stops answering (connections refused), as a store that went down. */
  stop(): Promise<void>;
  /** Answers again on the same port with the same objects. */
  start(): Promise<void>;
  close(): Promise<void>;
};

let prefixes = 0;

type FilesystemStore = { prototype: { deleteObject(bucket: string, key: string): Promise<void>; getResourcePath(bucket: string, key: string, resource: string): string } };
/**
 * s3rver keeps each object as files in a folder per key prefix, and after a delete it removes the
 * folders left empty. A put under the same prefix at that moment (its folder made, then removed
 * before the file opens) fails with ENOENT inside s3rver, whose request then never answers: seen
 * when the import sent two files at once, one `.incoming/` object deleted as the next was written.
 * S3 has no folders, so here a delete removes the object's files only; the empty folders stay until
 * the server is closed.
 */
function deleteObjectsOnly(): void {
  const store = createRequire(import.meta.url)('s3rver/lib/stores/filesystem.js') as FilesystemStore;
  store.prototype.deleteObject = async function deleteObject(bucket, key) {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json'].map((resource) =>
        fs.promises.unlink(this.getResourcePath(bucket, key, resource)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        }),
      ),
    );
  };
}
deleteObjectsOnly();

/**
 * A real S3 protocol server (s3rver) on 127.0.0.1 and a free port, its objects in a temporary folder:
 * the SDK's real requests, signatures, multipart uploads and ranges go through it. Tests only.
 */
export async function startTestS3(bucket = 'media'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  let port = 0;
  let server: S3rver | null = null;
  async function start() {
    server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }], vhostBuckets: false });
    const address = await server.run();
    port = address.port;
  }
  async function stop() {
    const running = server;
    server = null;
    if (!running) return;
    const closed = running.close();
    running.httpServer.closeAllConnections();
    await closed;
  }
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = (prefix = `t${process.pid}-${++prefixes}/`): S3Settings => ({
    endpoint,
    region: 'us-east-1',
    bucket,
    prefix,
    credentials: KEY,
    forcePathStyle: true,
  });
  return {
    settings,
    env(prefix) {
      const s = settings(prefix);
      return {
        MEDIA_STORE: 's3',
        S3_ENDPOINT: endpoint,
        S3_REGION: s.region,
        S3_BUCKET: bucket,
        S3_PREFIX: s.prefix,
        S3_ACCESS_KEY_ID: KEY.accessKeyId,
        S3_SECRET_ACCESS_KEY: KEY.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      };
    },
    endpoint,
    bucket,
    openUploads() {
      const uploads = path.join(directory, bucket, '._S3rver_uploads');
      return fs.existsSync(uploads) ? fs.readdirSync(uploads, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : [];
    },
    stop,
    start,
    async close() {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
