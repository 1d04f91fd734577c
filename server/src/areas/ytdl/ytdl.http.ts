import { createReadStream, promises as fs } from 'node:fs';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { ytdlJobInput, ytdlStartInput, type YtdlFormat } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { ytdlService, type YtdlService } from './ytdl.service.ts';

const MIME: Record<YtdlFormat, string> = { mp4: 'video/mp4', m4a: 'audio/mp4' };

/** RFC 5987 / RFC 6266: an ASCII fallback for old clients, and the exact name in UTF-8. */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

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

/** Streams a finished job's file from disk (memory does not grow with its size), then deletes it. */
async function sendFile(service: YtdlService, reply: FastifyReply, userId: number, job: string) {
  const file = service.takeFile(userId, job);
  let size: number;
  try {
    size = (await fs.stat(file.path)).size;
  } catch (error) {
    await file.release();
    throw error;
  }
  const stream = createReadStream(file.path, { highWaterMark: 1024 * 1024 });
  // Deleted once the answer is over, sent in full or cut short (an unlinked file stays readable).
  let released = false;
  const release = () => {
    if (!released) void file.release();
    released = true;
  };
  stream.once('close', release);
  reply.raw.once('close', release);
  return reply
    .header('content-type', MIME[file.format])
    .header('content-length', size)
    .header('content-disposition', contentDisposition(file.fileName))
    .header(TITLE_HEADER, encodeURIComponent(file.title))
    .header('cache-control', 'no-store')
    .send(stream);
}

export function ytdlHttp(routes: HttpRegistrar, deps: AppDeps) {
  routes.route('GET /api/ytdl/file/:job', (req, reply, { user }) => {
    const { job } = parse(ytdlJobInput, req.params);
    return sendFile(ytdlService(deps), reply, user.id, job);
  });

  routes.route('POST /api/ytdl/download', async (req, reply, { user }) => {
    const input = parse(ytdlStartInput, req.body);
    const service = ytdlService(deps);
    // A caller that hangs up before the file is ready cancels the download. (The response's 'close',
    // not the request's: the request closes as soon as its body has been read.)
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished && !reply.raw.headersSent) gone.abort();
    });
    const job = await service.startAndWait(user.id, input, gone.signal);
    return sendFile(service, reply, user.id, job);
  });
}
