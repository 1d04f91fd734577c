import { z } from 'zod';
import { MAX_ROW_ID } from '../row-id.ts';
import { NAMED_ISSUE, text } from '../text.ts';
import { wholeNumber } from '../whole-number.ts';
import { centsToDecimal, parseCents, type CentsParse } from './money.ts';
import { ITEM_MAX, MAX_YEAR, MIN_YEAR, RECIPIENT_MAX, charityMessages, type DocumentationType } from './finance.rules.ts';

export const issue = (ctx: { addIssue: (i: { code: 'custom'; message: string; params: typeof NAMED_ISSUE }) => void }, message: string) =>
  ctx.addIssue({ code: 'custom', message, params: NAMED_ISSUE });

/** Missing, null and blank all read 'may not be null', as the spec words it. */
const requiredText = (label: string, max: number, emptyMessage: string) =>
  z.preprocess((v) => (v === undefined || v === null ? '' : v), text({ label, max, trim: true, min: 1, emptyMessage }));

const valueReasons: Record<Exclude<CentsParse, { ok: true }>['reason'], string> = {
  'not-a-number': charityMessages.value,
  negative: charityMessages.valueNegative,
  'too-precise': charityMessages.valueTooPrecise,
  'too-large': charityMessages.valueTooLarge,
};

/** A value is optional (a gift of goods may have none); given, it must parse exactly into cents. */
export const moneyValue = z.unknown().optional().transform((v, ctx): number | null => {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
  if (typeof v !== 'string' && typeof v !== 'number') {
    issue(ctx, charityMessages.value);
    return z.NEVER;
  }
  if (typeof v === 'string' && v.length > 64) {
    issue(ctx, charityMessages.value);
    return z.NEVER;
  }
  const parsed = parseCents(v);
  if (!parsed.ok) {
    issue(ctx, valueReasons[parsed.reason]);
    return z.NEVER;
  }
  return parsed.cents;
});

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]*(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A calendar date 'YYYY-MM-DD' (a time after it, as some clients send, is dropped). */
export const calendarDate = z.unknown().optional().transform((v, ctx): string => {
  const match = typeof v === 'string' && v.length <= 40 ? DATE.exec(v.trim()) : null;
  if (match) {
    const [, y, m, d] = match.map(Number) as [number, number, number, number];
    const probe = new Date(Date.UTC(y, m - 1, d));
    if (y >= MIN_YEAR && y <= MAX_YEAR && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d) {
      return `${match[1]}-${match[2]}-${match[3]}`;
    }
  }
  issue(ctx, charityMessages.date);
  return z.NEVER;
});

export const yearSchema = wholeNumber(MIN_YEAR, MAX_YEAR, charityMessages.year);
export const entryId = wholeNumber(1, MAX_ROW_ID, charityMessages.id);

/** The fields of an entry, in the order the form reports their problems. */
const entryFields = {
  recipient: requiredText('Recipient', RECIPIENT_MAX, charityMessages.recipient),
  value: moneyValue,
  item: requiredText('Item', ITEM_MAX, charityMessages.item),
  date: calendarDate,
  charitable: z.unknown().optional().transform((v, ctx): boolean => {
    if (v === undefined || v === null) return false;
    if (typeof v === 'boolean') return v;
    issue(ctx, charityMessages.charitable);
    return z.NEVER;
  }),
};

/** Base64 text (checked when decoded on the server) and the type the sender claims (the bytes decide). */
const documentationFields = {
  documentation: text({ label: 'Documentation', max: 64 * 1024 * 1024 }).optional(),
  documentationType: text({ label: 'Documentation type', max: 100, trim: true }).optional(),
};

export const charityInput = z.object({ ...entryFields, ...documentationFields });
export type CharityInput = z.input<typeof charityInput>;
export type CharityEntryValues = z.output<typeof charityInput>;

export const updateCharityInput = z.object({ id: entryId, ...entryFields });
export type UpdateCharityValues = z.output<typeof updateCharityInput>;

export const yearInput = z.object({ year: yearSchema });
export const entryIdInput = z.object({ id: entryId });

/** The page's save of an entry and its new documentation in one request (id: an edit; none: a new entry). */
export const saveEntryInput = z.object({
  id: entryId.optional(),
  ...entryFields,
  file: text({ label: 'Documentation', max: 64 * 1024 * 1024 }),
  fileType: text({ label: 'Documentation type', max: 100, trim: true }).optional(),
});
export type SaveEntryValues = z.output<typeof saveEntryInput>;

export const setDocumentationInput = z.object({
  id: entryId,
  file: text({ label: 'Documentation', max: 64 * 1024 * 1024 }),
  fileType: text({ label: 'Documentation type', max: 100, trim: true }).optional(),
});

/** What the 'Add Charity Entry' form holds while it is being typed. */
export type CharityDraft = { recipient: string; value: string; item: string; date: string; charitable: boolean };

export type CharityCheck = { ok: true; values: CharityEntryValues } | { ok: false; errors: string[] };

/**
 * The one validation of an entry, used by the page before it sends anything and by the server on
 * every request (through `charityInput`): every problem, in the spec's order.
 */
export function validateCharity(draft: Partial<CharityDraft> | Record<string, unknown>): CharityCheck {
  const result = charityInput.safeParse(draft);
  if (result.success) return { ok: true, values: result.data };
  return { ok: false, errors: result.error.issues.map((i) => i.message) };
}

export type CharityEntry = {
  id: number;
  charitable: boolean;
  recipient: string;
  item: string;
  /** 'YYYY-MM-DD' */
  date: string;
  /** Exact integer cents; null when no value was given. */
  valueCents: number | null;
  /** The same in dollars, for the documented /api (a JSON number written from the exact decimal text). */
  value: number | null;
  hasDocumentation: boolean;
  documentationType: DocumentationType | null;
};

export type CharityTotals = { allCents: number; charitableCents: number; count: number };
export type CharityOverview = { year: number; years: number[]; totals: CharityTotals };
export type CharityDocumentation = { type: DocumentationType; buffer: string };

/** Dollars as a JSON number made from the exact decimal text (no arithmetic on floats). */
export const centsToDollars = (cents: number | null): number | null => (cents === null ? null : Number(centsToDecimal(cents)));
