import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { ytdlJobInput, ytdlStartInput, type YtdlFormat } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { contentDisposition } from '../../media/storage.ts';
import { ytdlService, type YtdlService } from './ytdl.service.ts';

const MIME: Record<YtdlFormat, string> = { mp4: 'video/mp4', m4a: 'audio/mp4' };

/** The header that carries the title: percent-encoded UTF-8, as header values are bytes, not text. */
export const TITLE_HEADER = 'x-video-title';

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const named = (issue as { params?: { named?: boolean } } | undefined)?.params?.named;
    const where = issue?.path.join('.') ?? '';
    throw new AppError('BAD_REQUEST', named || !where ? (issue?.message ?? 'Bad request') : `${where}: ${issue?.message ?? ''}`);
  }
  return result.data;
}

/**
 * Sends a job's file: the growing file while yt-dlp writes it (chunked, its size is not known yet)
 * or the finished file from disk; memory does not grow with its size either way. Deleted once the
 * answer is over, sent in full or cut short (an unlinked file stays readable to the open handle).
 * Written by hand rather than handed to `reply.send` as a stream: the file is read into two buffers
 * that take turns, so each chunk must be out before its buffer is read into again, which a write's
 * callback tells and a stream does not. Once the first bytes are out, a failure can no longer be a
 * JSON error: the connection is destroyed without the last chunk, and the receiver sees a failed
 * download rather than a shortened file that looks complete.
 */
async function sendFile(service: YtdlService, reply: FastifyReply, userId: number, job: string) {
  const file = await service.takeFile(userId, job);
  const res = reply.raw;
  // Also when the receiver hangs up while the pump waits for yt-dlp: the download stops at once.
  res.once('close', () => void file.release(res.writableFinished));
  reply.hijack();
  res.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    ...(file.size !== null ? { 'content-length': file.size } : {}),
    'content-type': MIME[file.format],
    'content-disposition': contentDisposition(file.fileName),
    [TITLE_HEADER]: encodeURIComponent(file.title),
  });
  const write = (chunk: Buffer) => new Promise<void>((resolve, reject) => res.write(chunk, (error) => (error ? reject(error) : resolve())));
  try {
    await file.source.pump(write);
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  }
}

export function ytdlHttp(routes: HttpRegistrar, deps: AppDeps) {
  routes.route('GET /api/ytdl/file/:job', (req, reply, { user }) => {
    const { job } = parse(ytdlJobInput, req.params);
    return sendFile(ytdlService(deps), reply, user.id, job);
  });

  routes.route('POST /api/ytdl/download', async (req, reply, { user }) => {
    const input = parse(ytdlStartInput, req.body);
    const service = ytdlService(deps);
    // A caller that hangs up before the file can be sent cancels the download (later, `sendFile`'s
    // release does). (The response's 'close', not the request's: the request closes as soon as its
    // body has been read.)
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished && !reply.raw.headersSent) gone.abort();
    });
    const job = await service.startAndWait(user.id, input, gone.signal);
    return sendFile(service, reply, user.id, job);
  });
}
