import { charityMessages, entryId, saveEntryInput, setDocumentationInput, yearSchema } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { checkDocument, decodeBase64, documentCsp } from './finance.documents.ts';
import * as finance from './finance.service.ts';

function idParam(params: unknown): number {
  const raw = (params as { id?: string }).id ?? '';
  const parsed = entryId.safeParse(/^\d{1,9}$/.test(raw) ? Number(raw) : NaN);
  if (!parsed.success) throw new AppError('BAD_REQUEST', charityMessages.id);
  return parsed.data;
}

/**
 * The routes of the Finance page that are not tRPC: the documentation for the viewer (an <img> or
 * <iframe> cannot send a tRPC call), its upload (documents are larger than the general body limit),
 * and a year as CSV. Each has an admin-only row in the permission table.
 */
export function registerFinanceHttp(routes: HttpRegistrar, deps: AppDeps): void {
  routes.route('GET /private/finance/:id/documentation', async (req, reply) => {
    const doc = await finance.findDocument(deps, idParam(req.params));
    // Not immutable: the URL names the entry, whose documentation may be replaced (ETag revalidates).
    return deps.media.send(req, reply, doc.key, { contentType: doc.type, csp: documentCsp(doc.type) });
  });

  // JSON `{ file: base64, fileType }`, the same fields as /api/finance/set_charity_documentation.
  const max = deps.config.financeDocumentMaxBytes;
  routes.route(
    'POST /private/finance/:id/documentation',
    async (req, reply) => {
      const id = idParam(req.params);
      const parsed = setDocumentationInput.safeParse({ ...(req.body as object), id });
      if (!parsed.success) throw new AppError('BAD_REQUEST', parsed.error.issues[0]?.message ?? charityMessages.documentationBase64);
      const doc = await checkDocument(decodeBase64(parsed.data.file, max), max);
      return reply.send(await finance.replaceDocument(deps, id, doc));
    },
    // Room for the base64 of the largest allowed file (4/3 of it) and the JSON around it.
    { bodyLimit: Math.ceil((max * 4) / 3) + 64 * 1024 },
  );

  // JSON: the entry's fields (and its id for an edit) with `file`, `fileType` as above.
  routes.route(
    'POST /private/finance/entries',
    async (req, reply) => {
      const parsed = saveEntryInput.safeParse(req.body);
      if (!parsed.success) throw new AppError('BAD_REQUEST', parsed.error.issues[0]?.message ?? charityMessages.documentationBase64);
      return reply.send(await finance.saveWithDocument(deps, parsed.data));
    },
    { bodyLimit: Math.ceil((max * 4) / 3) + 64 * 1024 },
  );

  routes.route('GET /private/finance/export/:year', async (req, reply) => {
    const raw = (req.params as { year?: string }).year ?? '';
    const year = yearSchema.safeParse(/^\d{4}$/.test(raw) ? Number(raw) : NaN);
    if (!year.success) throw new AppError('BAD_REQUEST', charityMessages.year);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="charity-${year.data}.csv"`)
      .header('Cache-Control', 'private, no-cache')
      .send(await finance.exportCsv(deps, year.data));
  });
}
