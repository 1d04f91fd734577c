import fs from 'node:fs';
import path from 'node:path';
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe } from 'vitest';
import { startTestS3, type TestS3 } from '../testing/s3-server.ts';
import { createS3Storage } from './s3-storage.ts';
import { mediaStorageContract } from './storage.contract.ts';
import os from 'node:os';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(() => s3.close());

/** A client of its own, to look into the bucket as an outsider would. */
function outsider(settings: ReturnType<TestS3['settings']>) {
  return new S3Client({ endpoint: settings.endpoint!, region: settings.region, forcePathStyle: true, credentials: settings.credentials! });
}

async function keysUnder(settings: ReturnType<TestS3['settings']>, prefix: string): Promise<string[]> {
  const page = await outsider(settings).send(new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: settings.prefix + prefix }));
  return (page.Contents ?? []).map((o) => o.Key ?? '');
}

describe('the S3 store (against s3rver on 127.0.0.1)', () => {
  mediaStorageContract(async () => {
    const settings = s3.settings();
    const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'media-s3-tmp-'));
    return {
      media: createS3Storage({ ...settings, tempRoot, partSize: 5 * 1024 * 1024 }),
      leftovers: async () => [...fs.readdirSync(tempRoot), ...(await keysUnder(settings, '.incoming/'))],
      cleanup: async () => {
        fs.rmSync(tempRoot, { recursive: true, force: true });
        const keys = await keysUnder(settings, '');
        if (keys.length > 0) await outsider(settings).send(new DeleteObjectsCommand({ Bucket: settings.bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } }));
      },
    };
  });
});
