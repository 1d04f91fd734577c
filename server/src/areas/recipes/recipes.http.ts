import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import { IMAGE_FILE, importMessages, recipesMessages } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { MediaTooLargeError, type IncomingFile } from '../../media/index.ts';
import { userActor } from '../../identity/session-user.ts';
import { importMany, MAX_IMPORT_FILES, type ImportFile } from './recipes.import.ts';

/** The largest single upload of a many-at-once import (a .zip of many recipes). */
export const IMPORT_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/** The largest picture accepted for an ingredient (it is shrunk to a tile-sized WebP anyway). */
export const RECIPE_IMAGE_MAX_BYTES = 20 * 1024 * 1024;
const IMAGE_SIDE = 480;
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

export const imageKey = (file: string) => `recipes/${file}`;

/** Deletes stored ingredient images no recipe names any more. */
export function forgetImages(deps: AppDeps) {
  return async (files: string[]) => {
    await Promise.all(files.filter((f) => IMAGE_FILE.test(f)).map((f) => deps.media.delete(imageKey(f))));
  };
}

/**
 * Ingredient images: uploaded as multipart (field `image`), checked from their bytes, re-encoded by
 * sharp as a small WebP (which also drops EXIF and anything hidden in the file) under a server-made
 * name; served to the same level as the recipes.
 */
/** A body that is not a well-formed multipart form (cut short, no boundary, bad headers) is the client's mistake. */
function malformed(error: unknown): unknown {
  if (error instanceof AppError || (error as { statusCode?: unknown }).statusCode !== undefined) return error;
  return new AppError('BAD_REQUEST', 'The upload is not a complete multipart form: send the image again');
}

export async function recipesHttp(routes: HttpRegistrar, deps: AppDeps): Promise<void> {
  // Multipart parsing for this area's routes only (their rows say `multipart`).
  await routes.register(fastifyMultipart, { limits: { files: 1, fields: 20, fieldSize: 64 * 1024 } });
  routes.route('POST /private/recipes/images', async (req, reply) => {
    const part = await req.file().catch((error: unknown) => {
      throw malformed(error);
    });
    if (!part) throw new AppError('BAD_REQUEST', recipesMessages.noImage);
    const maxBytes = Math.min(RECIPE_IMAGE_MAX_BYTES, deps.config.mediaMaxBytes);
    let incoming;
    try {
      incoming = await deps.media.receive(part.file, { maxBytes });
    } catch (error) {
      if (error instanceof MediaTooLargeError) throw new AppError('PAYLOAD_TOO_LARGE', error.message);
      throw malformed(error);
    }
    try {
      const type = await (await import('file-type')).fileTypeFromBuffer(incoming.head);
      if (!type || !ACCEPTED.has(type.mime)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', recipesMessages.imageType);
      let webp: Buffer;
      try {
        const sharp = (await import('sharp')).default; // loaded at the first photo, not when the server starts
        webp = await sharp(incoming.path, { animated: false, limitInputPixels: 50_000_000 })
          .rotate()
          .resize(IMAGE_SIDE, IMAGE_SIDE, { fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 82 })
          .toBuffer();
      } catch {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', recipesMessages.imageType);
      }
      const file = `${randomUUID()}.webp`;
      await deps.media.put(imageKey(file), webp);
      return reply.send({ image: file });
    } finally {
      await incoming.discard();
    }
  });

  // Several JSON-LD files and/or .zip archives (field `files`), each imported on its own; the answer is
  // the per-file report. Each file streams to a temporary file (never whole in memory), all of them
  // together at most IMPORT_UPLOAD_MAX_BYTES; past it nothing is imported and the files are removed.
  routes.route('POST /private/recipes/import', async (req, reply, { user }) => {
    const received: IncomingFile[] = [];
    let report;
    const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', importMessages.uploadTooLarge(IMPORT_UPLOAD_MAX_BYTES / 1024 / 1024));
    try {
      const files: ImportFile[] = [];
      try {
        let total = 0;
        for await (const part of req.files({ limits: { files: MAX_IMPORT_FILES, fileSize: IMPORT_UPLOAD_MAX_BYTES } })) {
          const incoming = await deps.media.receive(part.file, { maxBytes: IMPORT_UPLOAD_MAX_BYTES - total });
          received.push(incoming);
          // busboy cuts a file at fileSize and flags it; the import never reads half a file.
          if (part.file.truncated) throw tooLarge();
          total += incoming.size;
          files.push({ name: part.filename || `file ${files.length + 1}`, path: incoming.path, size: incoming.size });
        }
      } catch (error) {
        if (error instanceof MediaTooLargeError || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        if ((error as { code?: string }).code === 'FST_FILES_LIMIT') throw new AppError('BAD_REQUEST', recipesMessages.tooManyFiles(MAX_IMPORT_FILES));
        throw malformed(error);
      }
      report = await importMany(deps, userActor(user), files);
    } finally {
      await Promise.all(received.map((file) => file.discard()));
    }
    return reply.send({ report });
  });

  routes.route('GET /private/recipes/:file', async (req, reply) => {
    const { file } = req.params as { file: string };
    if (!IMAGE_FILE.test(file) || !(await deps.media.stat(imageKey(file)))) throw new AppError('NOT_FOUND', recipesMessages.imageNotFound);
    return deps.media.send(req, reply, imageKey(file), { immutable: true });
  });
}
