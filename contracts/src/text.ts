import { z } from 'zod';

/**
 * The one string type for every text field of every area. A person typing into a form never means a
 * NUL byte or a terminal control character (PostgreSQL refuses NUL outright, which used to answer
 * 500), so they are refused with a readable message; the length is capped before anything else
 * looks at the value, so an oversized field costs nothing.
 */
export type TextOptions = {
  /** How the field is named in messages: 'Task', 'Caption'. */
  label: string;
  /** Most characters accepted (after trimming when `trim`). */
  max: number;
  /** Fewest characters (after trimming when `trim`); 1 refuses an empty value with 'may not be empty'. */
  min?: number;
  /** Trim white space at both ends before the length checks and before the value is used. */
  trim?: boolean;
  /** Allow line breaks and tabs (notes, forewords, step instructions). */
  multiline?: boolean;
  /** The message for an empty value, when the spec names one. */
  emptyMessage?: string;
};

// eslint-disable-next-line no-control-regex -- these are exactly the characters refused
const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- the same, but tab, line feed and carriage return pass
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Characters that change how text around them looks without being seen: zero-width and bidi controls. */
// eslint-disable-next-line no-misleading-character-class -- each code point is matched on its own, combining ones included
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/;

export const textMessages = {
  notText: (label: string) => `${label} must be text`,
  empty: (label: string) => `${label} may not be empty`,
  tooShort: (label: string, min: number) => `${label} must be at least ${min} characters`,
  tooLong: (label: string, max: number) => `${label} may be at most ${max} characters`,
  control: (label: string) => `${label} may not contain control characters`,
  invisible: (label: string) => `${label} may not contain invisible or direction-changing characters`,
};

export function hasControlCharacters(value: string, multiline = false): boolean {
  return (multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE).test(value);
}

export function hasInvisibleCharacters(value: string): boolean {
  return INVISIBLE.test(value);
}

// eslint-disable-next-line no-misleading-character-class -- the same class as INVISIBLE, each code point on its own
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');
// eslint-disable-next-line no-control-regex -- every control character, for comparing names
const CONTROL_ALL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The form two names are compared in: NFC, without invisible, bidi-control and control characters,
 * lower case. Names equal in this form look alike, so only one of them may exist.
 */
export function lookalikeKey(value: string): string {
  return value.normalize('NFC').replace(INVISIBLE_ALL, '').replace(CONTROL_ALL, '').trim().toLowerCase();
}

/** Marks an issue whose message already names its field, so the server does not prefix the path. */
export const NAMED_ISSUE = { named: true } as const;

type IssueSink = { addIssue(issue: { code: 'custom'; message: string; params: typeof NAMED_ISSUE; fatal?: boolean }): void };
const refuse = (ctx: IssueSink, message: string) => ctx.addIssue({ code: 'custom', message, params: NAMED_ISSUE, fatal: true });

/** A text field: `text({ label: 'Task', max: 500, trim: true, min: 1 })`. */
export function text(opts: TextOptions) {
  const { label, max } = opts;
  const min = opts.min ?? 0;
  // A hard cap on the raw value first (generous for white space that trimming will remove).
  const rawMax = opts.trim ? max * 2 + 64 : max;
  const raw = z.string({ error: textMessages.notText(label) }).superRefine((value, ctx) => {
    if (value.length > rawMax) return refuse(ctx, textMessages.tooLong(label, max));
    if (hasControlCharacters(value, opts.multiline)) return refuse(ctx, textMessages.control(label));
  });
  return (opts.trim ? raw.trim() : raw).superRefine((value, ctx) => {
    if (min > 0 && value.length === 0) return refuse(ctx, opts.emptyMessage ?? textMessages.empty(label));
    if (value.length < min) return refuse(ctx, textMessages.tooShort(label, min));
    if (value.length > max) return refuse(ctx, textMessages.tooLong(label, max));
  });
}

/**
 * A name people see and tell apart (account names): normalised to NFC, and refused when it holds
 * invisible or bidi-control characters, which make one name look like another ('\u200badmin').
 */
export function nameText(opts: Omit<TextOptions, 'multiline'>) {
  return text({ ...opts, multiline: false })
    .transform((v) => v.normalize('NFC'))
    .superRefine((value, ctx) => {
      if (hasInvisibleCharacters(value)) refuse(ctx, textMessages.invisible(opts.label));
    });
}
