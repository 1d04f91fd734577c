import { z } from 'zod';
import { textMessages } from './text-messages.ts';

export { textMessages };

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
  /**
   * Free text other people read (comments): refuse direction overrides and isolates, which make the
   * text read differently from how it is stored, and a value of only invisible characters.
   */
  visible?: boolean;
};

// eslint-disable-next-line no-control-regex -- these are exactly the characters refused
const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- the same, but tab, line feed and carriage return pass
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Characters that change how text around them looks without being seen: zero-width and bidi controls. */
// eslint-disable-next-line no-misleading-character-class -- each code point is matched on its own, combining ones included
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/;

/** Half of a UTF-16 pair without its other half: never typed, and not a character at all. */
const LONE_SURROGATE = /\p{Surrogate}/u;
/** The bidi embeddings, overrides and isolates (LRE..RLO, LRI..PDI): they reorder what is shown. */
const DIRECTION_OVERRIDE = /[\u202a-\u202e\u2066-\u2069]/;

export function hasControlCharacters(value: string, multiline = false): boolean {
  return (multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE).test(value);
}

/**
 * One emoji as people type it: a pictograph, a flag's two regional indicators or a keycap base, with
 * its skin tone, presentation selector (VS15/VS16) or keycap mark; the subdivision flags (🏴 with tag
 * characters). A zero-width joiner is part of a name only between two of these (👩‍👧, 🧗‍♀️).
 */
const EMOJI_UNIT = String.raw`(?:\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|[0-9#*])(?:\p{Emoji_Modifier}|[\uFE0E\uFE0F]|\u20E3)*)`;
const EMOJI_SEQUENCE = new RegExp(`${EMOJI_UNIT}(?:\\u200D${EMOJI_UNIT})*`, 'gu');
/** Invisible too, but not part of the comparison key (lookalikeKey) that stored names were keyed with. */
const INVISIBLE_MORE = /[\u2028\u2029\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}]/u;
const INVISIBLE_MORE_EVERY = new RegExp(INVISIBLE_MORE.source, 'gu');

/**
 * Whether a name hides characters that are not seen: zero-width, bidi controls, variation selectors,
 * tag characters. Those that belong to an emoji sequence (the joiner inside 🧗‍♀️, VS16, a flag's
 * tags) are allowed: they are what the emoji is made of.
 */
export function hasInvisibleCharacters(value: string): boolean {
  const rest = value.replace(EMOJI_SEQUENCE, '');
  return INVISIBLE.test(rest) || INVISIBLE_MORE.test(rest);
}

/** Whether nothing of the value would be seen: only white space and invisible characters. */
export function hasNothingVisible(value: string): boolean {
  return value.replace(INVISIBLE_ALL, '').replace(INVISIBLE_MORE_EVERY, '').trim() === '';
}

/** Scripts whose letters look like Latin ones ('а' Cyrillic, 'ο' Greek): one word may not mix them. */
const CONFUSABLE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];
/** Letters in compatibility forms that look like plain ones: fullwidth (ａ) and mathematical (𝐚, 𝔞). */
const STYLED_LETTERS = /[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\u{1d400}-\u{1d7ff}]/u;

/**
 * Whether a name looks like another one by a trick: a word mixing Latin, Cyrillic and Greek letters
 * ('pаypal' with a Cyrillic а), or fullwidth and mathematical letters. (Case, NFC and invisible
 * characters are handled by lookalikeKey, which makes such names one.)
 */
export function hasLookalikeLetters(value: string): boolean {
  if (STYLED_LETTERS.test(value)) return true;
  return value.split(/\s+/u).some((word) => CONFUSABLE_SCRIPTS.filter((script) => script.test(word)).length > 1);
}

/** Why a name people see is refused (invisible characters first), or null. */
export function nameTextProblem(value: string): 'invisible' | 'lookalike' | null {
  if (hasInvisibleCharacters(value)) return 'invisible';
  if (hasLookalikeLetters(value)) return 'lookalike';
  return null;
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
    if (LONE_SURROGATE.test(value)) return refuse(ctx, textMessages.brokenCharacter(label));
    if (opts.visible && DIRECTION_OVERRIDE.test(value)) return refuse(ctx, textMessages.invisible(label));
  });
  return (opts.trim ? raw.trim() : raw).superRefine((value, ctx) => {
    if (min > 0 && value.length === 0) return refuse(ctx, opts.emptyMessage ?? textMessages.empty(label));
    if (opts.visible && min > 0 && hasNothingVisible(value)) return refuse(ctx, textMessages.nothingVisible(label));
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
      const problem = nameTextProblem(value);
      if (problem) refuse(ctx, textMessages[problem](opts.label));
    });
}
