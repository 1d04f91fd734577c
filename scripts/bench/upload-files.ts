import { execFileSync } from 'node:child_process';
import http from 'node:http';

/** What the upload benches send: one file's multipart body, the request that sends it, and distinct bytes for each copy of a file. */

/** A multipart body with one file and a date, as the upload page sends it. */
export function multipartOf(name: string, data: Buffer, boundary: string): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="date"\r\n\r\n\r\n--${boundary}--\r\n`),
  ]);
}

/** One upload as the upload page sends it (POST /api/pictures/upload over HTTP, multipart); the answer's status once its body is read. */
export function postUpload(base: string, cookie: string, name: string, data: Buffer, boundary: string): Promise<number> {
  const payload = multipartOf(name, data, boundary);
  return new Promise<number>((resolve, reject) => {
    const req = http.request(new URL('/api/pictures/upload', base), {
      method: 'POST',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': payload.length },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The kernel's write-back of what the last phase wrote, done now: otherwise it slows whichever phase runs next. */
export const flushDisk = () => execFileSync('sync');

/** Distinct bytes for each copy of a file (the gallery stores the same bytes once): an ISO-BMFF 'free' box, or bytes after a JPEG's or TIFF's end. */
export function unique(data: Buffer, i: number, kind: 'box' | 'tail'): Buffer {
  const mark = Buffer.alloc(16);
  if (kind === 'box') {
    mark.writeUInt32BE(16, 0);
    mark.write('free', 4, 'latin1');
  }
  mark.writeUInt32BE(i, 12);
  return Buffer.concat([data, mark]);
}
