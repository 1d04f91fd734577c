import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestS3, type TestS3 } from '../testing/s3-server.ts';
import { uploadFromFile } from './s3-file-upload.ts';

const MiB = 1024 * 1024;
let s3: TestS3;
let dir: string;
beforeAll(async () => {
  s3 = await startTestS3();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-upload-'));
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A client, and the most UploadPart requests it had on their way at once. */
function client() {
  const settings = s3.settings();
  const c = new S3Client({ endpoint: settings.endpoint!, region: settings.region, forcePathStyle: true, credentials: settings.credentials! });
  const seen = { parts: 0, most: 0, onTheWay: 0, aborted: [] as string[] };
  c.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'AbortMultipartUploadCommand') seen.aborted.push(String((args.input as { UploadId?: string }).UploadId));
      if (context.commandName !== 'UploadPartCommand') return next(args);
      seen.parts++;
      seen.most = Math.max(seen.most, ++seen.onTheWay);
      try {
        return await next(args);
      } finally {
        seen.onTheWay--;
      }
    },
    { step: 'initialize' },
  );
  return { c, bucket: settings.bucket, seen };
}

async function objectBytes(c: S3Client, bucket: string, key: string): Promise<Buffer> {
  const answer = await c.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

const openUploads = () => s3.openUploads().length;

/** Bytes that differ from part to part, so a part sent twice or out of order shows. */
function bytes(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4096) out.writeUInt32BE(i >>> 0, i);
  return out;
}

/** Writes `data` into a new file in `step`-byte writes, telling the upload after each, as the temporary area does. */
async function growInto(file: string, data: Buffer, step: number, upload: ReturnType<typeof uploadFromFile>) {
  const fd = fs.openSync(file, 'w');
  try {
    for (let at = 0; at < data.length; at += step) {
      fs.writeSync(fd, data, at, Math.min(step, data.length - at));
      await upload.written(Math.min(at + step, data.length));
    }
  } finally {
    fs.closeSync(fd);
  }
  await upload.finish(data.length);
}

describe('uploading a file to the bucket while it is written', () => {
  it.each([
    ['empty', 0],
    ['smaller than a part', 100_000],
    ['exactly two parts', 10 * MiB],
    ['four parts and a byte', 20 * MiB + 1],
  ])('stores the file byte for byte when it is %s', async (_name, size) => {
    const { c, bucket, seen } = client();
    const file = path.join(dir, `grow-${size}`);
    const key = `whole/${size}.bin`;
    const data = bytes(size);
    const upload = uploadFromFile({ client: c, bucket, key, path: file, partSize: 5 * MiB, queueSize: 2 });
    await growInto(file, data, 256 * 1024, upload);
    const back = await objectBytes(c, bucket, key);
    expect(back.length).toBe(size);
    expect(createHash('sha256').update(back).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    // One request for a file smaller than a part; whole parts as they fill, never more than two at once.
    expect(seen.parts).toBe(size <= 5 * MiB ? 0 : Math.ceil(size / (5 * MiB)));
    expect(seen.most).toBeLessThanOrEqual(2);
    expect(openUploads()).toBe(0);
  });

  it('sends each part as soon as it is on disk, before the file is whole', async () => {
    const { c, bucket, seen } = client();
    const file = path.join(dir, 'early');
    const upload = uploadFromFile({ client: c, bucket, key: 'early.bin', path: file, partSize: 5 * MiB, queueSize: 3 });
    const data = bytes(11 * MiB);
    fs.writeFileSync(file, data.subarray(0, 10 * MiB));
    await upload.written(10 * MiB);
    await vi.waitFor(() => expect(seen.parts).toBe(2));
    fs.appendFileSync(file, data.subarray(10 * MiB));
    await upload.finish(11 * MiB);
    expect(seen.parts).toBe(3);
    expect((await objectBytes(c, bucket, 'early.bin')).equals(data)).toBe(true);
  });

  // s3rver answers AbortMultipartUpload with MethodNotAllowed (it has not built it): these tests check
  // that the abort is asked for the upload that was begun; a real store then drops its parts.
  it('aborts: asks the store to drop the upload begun, and no object appears', async () => {
    const { c, bucket, seen } = client();
    const file = path.join(dir, 'aborted');
    fs.writeFileSync(file, bytes(6 * MiB));
    const upload = uploadFromFile({ client: c, bucket, key: 'aborted.bin', path: file, partSize: 5 * MiB, queueSize: 3 });
    await upload.written(6 * MiB);
    await vi.waitFor(() => expect(openUploads()).toBe(1));
    const begun = s3.openUploads();
    await upload.abort().catch(() => {});
    expect(seen.aborted).toEqual(begun);
    await expect(objectBytes(c, bucket, 'aborted.bin')).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('says a part failed (its file gone) at the next write, and asks for the abort after', async () => {
    const { c, bucket, seen } = client();
    const file = path.join(dir, 'vanishing');
    fs.writeFileSync(file, bytes(5 * MiB));
    const upload = uploadFromFile({ client: c, bucket, key: 'vanishing.bin', path: file, partSize: 5 * MiB, queueSize: 1 });
    fs.rmSync(file);
    await upload.written(5 * MiB);
    await expect(upload.finish(10 * MiB)).rejects.toMatchObject({ code: 'ENOENT' });
    await upload.abort().catch(() => {});
    expect(seen.aborted).toHaveLength(1);
    await expect(objectBytes(c, bucket, 'vanishing.bin')).rejects.toMatchObject({ name: 'NoSuchKey' });
  });
});
