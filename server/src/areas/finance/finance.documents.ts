import { randomUUID } from 'node:crypto';
import { charityMessages, DOCUMENTATION_TYPES, type DocumentationType } from '@site/contracts';
import { AppError } from '../../errors.ts';

const EXTENSIONS: Record<DocumentationType, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

export function formatLimit(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

const tooLarge = (maxBytes: number) => new AppError('PAYLOAD_TOO_LARGE', charityMessages.documentationTooLarge(formatLimit(maxBytes)));

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes documentation sent as base64 (a `data:` URL prefix is accepted), strictly: any character
 * outside the alphabet, or a length no encoder produces, is refused instead of silently skipped the
 * way Buffer.from would. The size is checked before decoding.
 */
export function decodeBase64(text: string, maxBytes: number): Buffer {
  let body = text.replace(/\s+/g, '');
  const dataUrl = /^data:[\w.+-]+\/[\w.+-]+;base64,/i.exec(body);
  if (dataUrl) body = body.slice(dataUrl[0].length);
  if (!BASE64.test(body) || body.length % 4 === 1) throw new AppError('BAD_REQUEST', charityMessages.documentationBase64);
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  if (padding > 0 && body.length % 4 !== 0) throw new AppError('BAD_REQUEST', charityMessages.documentationBase64);
  const bytes = Math.floor((body.length * 3) / 4) - padding;
  if (bytes > maxBytes) throw tooLarge(maxBytes);
  const buffer = Buffer.from(body, 'base64');
  if (buffer.length === 0) throw new AppError('BAD_REQUEST', charityMessages.documentationEmpty);
  return buffer;
}

export type CheckedDocument = { bytes: Buffer; type: DocumentationType; key: string };

/** The file's type from its bytes (file-type), refused unless PDF, JPEG, PNG or WebP; a fresh server-made key. */
export async function checkDocument(bytes: Buffer, maxBytes: number): Promise<CheckedDocument> {
  if (bytes.length === 0) throw new AppError('BAD_REQUEST', charityMessages.documentationEmpty);
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  const detected = await (await import('file-type')).fileTypeFromBuffer(bytes);
  const type = DOCUMENTATION_TYPES.find((t) => t === detected?.mime);
  if (!type) throw new AppError('UNSUPPORTED_MEDIA_TYPE', charityMessages.documentationType);
  return { bytes, type, key: `finance/${randomUUID()}.${EXTENSIONS[type]}` };
}

/**
 * The Content-Security-Policy documentation is served with: nothing may run or load. Images also get
 * `sandbox`; a PDF cannot (Chromium refuses to show a PDF in a sandboxed document), but with no
 * script source and a type told from the bytes (and nosniff) it can only be shown by the PDF viewer.
 */
export function documentCsp(type: string): string {
  const base = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; form-action 'none'; base-uri 'none'";
  return type === 'application/pdf' ? base : `${base}; sandbox`;
}
