/** The text fields' messages: plain values without zod, so a page that shows one loads no schema. */
export const textMessages = {
  notText: (label: string) => `${label} must be text`,
  empty: (label: string) => `${label} may not be empty`,
  tooShort: (label: string, min: number) => `${label} must be at least ${min} characters`,
  tooLong: (label: string, max: number) => `${label} may be at most ${max} characters`,
  control: (label: string) => `${label} may not contain control characters`,
  brokenCharacter: (label: string) => `${label} may not contain broken characters (half of an emoji or other symbol)`,
  nothingVisible: (label: string) => `${label} must have something to read (not only invisible characters)`,
  invisible: (label: string) => `${label} may not contain invisible or direction-changing characters`,
  lookalike: (label: string) => `${label} may not mix Latin, Cyrillic or Greek letters in one word, nor use fullwidth or styled letters`,
};
