import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from './s3-server.ts';

/**
 * The tests' S3 server behaves as S3 does where s3rver alone does not: a delete under a prefix while
 * another object of that prefix is being written. s3rver removed the folder the delete left empty, the
 * write then failed inside s3rver (ENOENT) and its request never answered (the import's S3 test hung).
 */
describe('the test S3 server', () => {
  let s3: TestS3;
  let client: S3Client;
  beforeAll(async () => {
    s3 = await startTestS3();
    const { region, credentials } = s3.settings('race/');
    if (!credentials) throw new Error('the test S3 server has an account');
    client = new S3Client({ endpoint: s3.endpoint, region, credentials, forcePathStyle: true, requestHandler: { requestTimeout: 5_000 } });
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.close();
  });

  it('writes and deletes objects of one prefix at the same time, every request answered', async () => {
    const key = (i: number) => `race/.incoming/${i}`;
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key(0), Body: 'first' }));
    for (let i = 1; i <= 150; i++) {
      // The only object of the prefix goes while the next one arrives.
      await Promise.all([
        client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key(i - 1) })),
        client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key(i), Body: Buffer.alloc(64 * 1024, i) })),
      ]);
    }
    const left = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'race/' }));
    expect(left.Contents?.map((o) => o.Key)).toEqual([key(150)]);
    const folders = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'race/', Delimiter: '/' }));
    expect(folders.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['race/.incoming/']);
  });
});
