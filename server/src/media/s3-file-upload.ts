import fsp from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';

export type FileUploadOptions = {
  client: S3Client;
  bucket: string;
  key: string;
  /** The local file the parts are read from; it may still be growing (see `written`). */
  path: string;
  /** Bytes per part (S3: at least 5 MiB but the last). */
  partSize: number;
  /** Parts on their way at once. */
  queueSize: number;
};

export type FileUpload = {
  /**
   * The file now holds `onDisk` bytes: each whole part among them is sent. Resolves when the caller may
   * write on (no more than `queueSize` parts on their way); rejects when a part failed.
   */
  written(onDisk: number): Promise<void>;
  /** The file is whole at `size` bytes: sends the rest and completes the object. */
  finish(size: number): Promise<void>;
  /** Stops: waits for the parts on their way, then aborts the multipart upload (no parts left behind). */
  abort(): Promise<void>;
};

/**
 * An object uploaded from a local file, part by part while the file is still being written: each
 * part's body is read back from the disk when the part is whole (a file stream of its byte range),
 * so memory holds only the streams' small buffers, not `queueSize` parts of `partSize` bytes as
 * lib-storage's Upload does (it copies a stream into a Buffer per part). A file smaller than one
 * part is one PutObject at the end.
 */
export function uploadFromFile(opts: FileUploadOptions): FileUpload {
  const { client, bucket, key, path, partSize, queueSize } = opts;
  let uploadId: Promise<string> | null = null;
  /** The next part to send (1-based); parts before it are sent or on their way. */
  let nextPart = 1;
  const parts: CompletedPart[] = [];
  const onTheWay = new Set<Promise<void>>();
  let failed: { error: unknown } | null = null;

  const started = () => {
    uploadId ??= client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key })).then((answer) => {
      if (!answer.UploadId) throw new Error(`The store gave no upload id for ${key}`);
      return answer.UploadId;
    });
    return uploadId;
  };

  function send(partNumber: number, start: number, length: number) {
    const sending = (async () => {
      const id = await started();
      // Opened first: a file gone meanwhile (the upload failed and its file was removed) rejects here.
      const file = await fsp.open(path, 'r');
      try {
        const answer = await client.send(
          new UploadPartCommand({
            Bucket: bucket,
            Key: key,
            UploadId: id,
            PartNumber: partNumber,
            ContentLength: length,
            ChecksumCRC32: await crc32Of(file, start, length),
            Body: file.createReadStream({ start, end: start + length - 1, autoClose: false }),
          }),
        );
        parts.push({ PartNumber: partNumber, ETag: answer.ETag });
      } finally {
        await file.close();
      }
    })().catch((error: unknown) => {
      failed ??= { error };
    });
    const tracked = sending.finally(() => onTheWay.delete(tracked));
    onTheWay.add(tracked);
  }

  function check() {
    if (failed) throw failed.error;
  }

  /** Waits until fewer than `queueSize` parts are on their way, then says whether one failed. */
  async function slot() {
    while (onTheWay.size >= queueSize) await Promise.race(onTheWay);
    check();
  }

  async function written(onDisk: number) {
    check();
    while (onDisk >= nextPart * partSize) {
      await slot();
      send(nextPart, (nextPart - 1) * partSize, partSize);
      nextPart++;
    }
  }

  return {
    written,

    async finish(size) {
      await written(size);
      if (!uploadId) {
        // Smaller than one part: one request.
        const file = await fsp.open(path, 'r');
        try {
          await client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: key,
              ContentLength: size,
              ChecksumCRC32: await crc32Of(file, 0, size),
              Body: size > 0 ? file.createReadStream({ start: 0, autoClose: false }) : Buffer.alloc(0),
            }),
          );
        } finally {
          await file.close();
        }
        return;
      }
      const rest = size - (nextPart - 1) * partSize;
      if (rest > 0) {
        await slot();
        send(nextPart, (nextPart - 1) * partSize, rest);
      }
      await Promise.all(onTheWay);
      check();
      parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
      await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: await uploadId, MultipartUpload: { Parts: parts } }));
    },

    async abort() {
      await Promise.all(onTheWay);
      if (!uploadId) return;
      const id = await uploadId.catch(() => null);
      if (id) await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: id }));
    },
  };
}

/**
 * The CRC32 of a byte range (base64 of its four bytes, as S3's `x-amz-checksum-crc32` wants), read in
 * 1 MiB pieces. Given with the part, the store checks what it got; without it the SDK would compute it
 * as a trailer of an aws-chunked body, which not every S3-compatible store reads (s3rver keeps the
 * framing as part of the object).
 */
async function crc32Of(file: fsp.FileHandle, start: number, length: number): Promise<string> {
  const piece = Buffer.allocUnsafe(Math.min(length, 1024 * 1024));
  let value = 0;
  for (let at = 0; at < length; ) {
    const { bytesRead } = await file.read(piece, 0, Math.min(piece.length, length - at), start + at);
    if (bytesRead === 0) throw new Error(`The file ended ${length - at} bytes short of its part`);
    value = crc32(piece.subarray(0, bytesRead), value);
    at += bytesRead;
  }
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out.toString('base64');
}
