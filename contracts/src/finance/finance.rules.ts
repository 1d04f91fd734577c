/**
 * The finance area's messages, limits and documentation types: plain values without zod, so a page that
 * needs them does not load the schemas (finance.schemas.ts), which the form checks load when it submits.
 */

/** The spec's messages, in the order the form reports them, then the ones it left unsaid. */
export const charityMessages = {
  recipient: 'Recipient may not be null',
  value: 'Value must be a numeric',
  item: 'Item may not be null',
  valueNegative: 'Value may not be negative',
  valueTooPrecise: 'Value may have at most two decimal places (cents)',
  valueTooLarge: 'Value may be at most 999,999,999,999.99',
  date: 'Date must be a date written YYYY-MM-DD',
  charitable: 'Charitable must be true or false',
  year: 'Year must be a whole number from 1900 to 9999',
  id: 'Choose an entry by its number',
  unknownEntry: 'No charity entry has that number',
  noDocumentation: 'That entry has no documentation',
  documentationType: 'Documentation must be a PDF, JPEG, PNG or WebP file',
  documentationBase64: 'Documentation is not valid base64',
  documentationEmpty: 'Documentation is an empty file',
  documentationTooLarge: (limit: string) => `Documentation may be at most ${limit}`,
} as const;

/** Documentation is one of these, told from the file's bytes (never from its name or a claimed type). */
export const DOCUMENTATION_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const;
export type DocumentationType = (typeof DOCUMENTATION_TYPES)[number];

export const RECIPIENT_MAX = 200;
export const ITEM_MAX = 500;
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;
