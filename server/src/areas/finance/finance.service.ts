import {
  centsToDecimal,
  centsToDollars,
  charityMessages,
  type CharityDocumentation,
  type CharityEntry,
  type CharityEntryValues,
  type CharityOverview,
  type DocumentationType,
  type SaveEntryValues,
  type UpdateCharityValues,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { checkDocument, decodeBase64, type CheckedDocument } from './finance.documents.ts';
import * as repo from './finance.repository.ts';
import type { CharityEntryRecord } from './finance.tables.ts';

const toCents = (v: CharityEntryRecord['value_cents']): number | null => (v === null ? null : Number(String(v)));

export function entryOf(row: CharityEntryRecord): CharityEntry {
  const valueCents = toCents(row.value_cents);
  return {
    id: row.id,
    charitable: row.charitable,
    recipient: row.recipient,
    item: row.item,
    date: row.date,
    valueCents,
    value: centsToDollars(valueCents),
    hasDocumentation: row.documentation_key !== null,
    documentationType: (row.documentation_type as DocumentationType | null) ?? null,
  };
}

const yearOf = (date: string) => Number(date.slice(0, 4));
const currentYear = () => new Date().getFullYear();

export async function list(deps: AppDeps, year: number): Promise<CharityEntry[]> {
  return (await repo.listByYear(deps.db, year)).map(entryOf);
}

/** The year's totals (all gifts, charitable gifts, how many) and the years to choose from. */
export async function overview(deps: AppDeps, year: number): Promise<CharityOverview> {
  const [years, totals] = await Promise.all([repo.years(deps.db), repo.totals(deps.db, year)]);
  const choices = [...new Set([...years, currentYear(), year])].sort((a, b) => b - a);
  return {
    year,
    years: choices,
    totals: { allCents: Number(totals.all_cents), charitableCents: Number(totals.charitable_cents), count: Number(totals.count) },
  };
}

async function documentFromBase64(deps: AppDeps, base64: string): Promise<CheckedDocument> {
  const max = deps.config.financeDocumentMaxBytes;
  return checkDocument(decodeBase64(base64, max), max);
}

const documentColumns = (doc: CheckedDocument | null) => ({
  documentation_key: doc?.key ?? null,
  documentation_type: doc?.type ?? null,
  documentation_size: doc?.bytes.length ?? null,
});

/** The columns an entry's form values fill (its year is derived from its date). */
function entryColumns(input: CharityEntryValues) {
  return {
    charitable: input.charitable,
    recipient: input.recipient,
    item: input.item,
    date: input.date,
    year: yearOf(input.date),
    value_cents: input.value,
  };
}

/**
 * Adds an entry, with its documentation when given. The file is checked and stored before the row
 * is written, and removed again if the row is not, so a refused request leaves nothing behind.
 */
export async function add(deps: AppDeps, input: CharityEntryValues): Promise<CharityEntry> {
  return addChecked(deps, input, input.documentation ? await documentFromBase64(deps, input.documentation) : null);
}

async function addChecked(deps: AppDeps, input: Omit<CharityEntryValues, 'documentation' | 'documentationType'>, doc: CheckedDocument | null): Promise<CharityEntry> {
  if (doc) await deps.media.put(doc.key, doc.bytes);
  try {
    const row = await repo.insertEntry(deps.db, { ...entryColumns(input), ...documentColumns(doc) });
    return entryOf(row);
  } catch (error) {
    if (doc) await deps.media.delete(doc.key);
    throw error;
  }
}

export async function update(deps: AppDeps, input: UpdateCharityValues): Promise<CharityEntry> {
  const row = await repo.updateEntry(deps.db, input.id, entryColumns(input));
  if (!row) throw new AppError('NOT_FOUND', charityMessages.unknownEntry);
  return entryOf(row);
}

export async function remove(deps: AppDeps, id: number): Promise<{ id: number }> {
  const row = await repo.deleteEntry(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND', charityMessages.unknownEntry);
  if (row.documentation_key) await deps.media.delete(row.documentation_key);
  return { id };
}

/** Where an entry's documentation is stored, and its type (told from its bytes when it was stored). */
export async function findDocument(deps: AppDeps, id: number): Promise<{ key: string; type: DocumentationType }> {
  const row = await repo.findEntry(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND', charityMessages.unknownEntry);
  if (!row.documentation_key || !row.documentation_type) throw new AppError('NOT_FOUND', charityMessages.noDocumentation);
  return { key: row.documentation_key, type: row.documentation_type as DocumentationType };
}

export async function documentation(deps: AppDeps, id: number): Promise<CharityDocumentation> {
  const doc = await findDocument(deps, id);
  return { type: doc.type, buffer: (await deps.media.readBuffer(doc.key)).toString('base64') };
}

/**
 * Attaches or replaces an entry's documentation (or removes it, with null): the new file is stored
 * first, the row then points at it, and only then is the old file deleted.
 */
export async function replaceDocument(
  deps: AppDeps,
  id: number,
  doc: CheckedDocument | null,
  values?: Omit<UpdateCharityValues, 'id'>,
): Promise<CharityEntry> {
  if (doc) await deps.media.put(doc.key, doc.bytes);
  let old: string | null = null;
  let updated: CharityEntryRecord | undefined;
  try {
    updated = await deps.db.transaction().execute(async (trx) => {
      const row = await repo.lockEntry(trx, id);
      if (!row) throw new AppError('NOT_FOUND', charityMessages.unknownEntry);
      old = row.documentation_key;
      return repo.updateEntry(trx, id, { ...(values ? entryColumns(values) : {}), ...documentColumns(doc) });
    });
  } catch (error) {
    if (doc) await deps.media.delete(doc.key);
    throw error;
  }
  if (old) await deps.media.delete(old);
  if (!updated) throw new AppError('NOT_FOUND', charityMessages.unknownEntry);
  return entryOf(updated);
}

export async function setDocumentation(deps: AppDeps, input: { id: number; file: string }): Promise<CharityEntry> {
  return replaceDocument(deps, input.id, await documentFromBase64(deps, input.file));
}

export const removeDocumentation = (deps: AppDeps, id: number) => replaceDocument(deps, id, null);

/**
 * The page's save of an entry with a new file: the file is checked before anything is written, then
 * the entry and its documentation are written together, so a refused file leaves no entry behind
 * (and an edit keeps its old values).
 */
export async function saveWithDocument(deps: AppDeps, input: SaveEntryValues): Promise<CharityEntry> {
  const { id, file, fileType: _type, ...values } = input;
  const doc = await documentFromBase64(deps, file);
  if (id === undefined) return addChecked(deps, values, doc);
  return replaceDocument(deps, id, doc, values);
}

const CSV_HEADER = ['Date', 'Recipient', 'Item', 'Value in USD', 'Charitable', 'Documentation'];

/** A cell safe for spreadsheets: quoted, and text that a spreadsheet would run as a formula defused. */
function csvCell(value: string): string {
  const defused = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${defused.replace(/"/g, '""')}"`;
}

export async function exportCsv(deps: AppDeps, year: number): Promise<string> {
  const entries = await list(deps, year);
  const lines = [CSV_HEADER.map(csvCell).join(',')];
  for (const e of entries) {
    const value = e.valueCents === null ? '' : centsToDecimal(e.valueCents);
    lines.push(
      [e.date, e.recipient, e.item, value, e.charitable ? 'yes' : 'no', e.hasDocumentation ? 'yes' : 'no'].map(csvCell).join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
