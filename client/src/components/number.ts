/**
 * Numbers as people type them. A decimal comma (`2,5`, the keyboard of most of Europe and of many
 * phones) and a decimal point (`2.5`) are the same number; a field that takes only whole numbers
 * (ports, counts, days) refuses either with a message that says so, instead of dropping the comma and
 * reading `2,5` as 25. Nothing is ever silently left out: text that is not one number is refused.
 */
export type NumberRules = {
  /** The field's name as it starts a message: 'Port must be a whole number'. */
  label: string;
  /** Only whole numbers (ports, counts, days, minutes). */
  whole?: boolean;
  min?: number;
  max?: number;
  /** The area's own words for every refusal, when the server already has them ('Repeat every 1 to 365 days, a whole number'). */
  message?: string;
};

export type NumberParse = { ok: true; value: number | null } | { ok: false; message: string };

/** Digits with at most one decimal separator (point or comma), an optional leading minus. */
const NUMBER = /^([-−]?)(\d*)(?:[.,](\d*))?$/;

/** The bounds as words: 'from 1 to 65535', 'of at least 1', 'of at most 10'. */
function range(rules: NumberRules): string {
  const { min, max } = rules;
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

/** What the field asks for, as the end of a sentence: 'a whole number from 1 to 65535'. */
export function numberWanted(rules: NumberRules): string {
  return `${rules.whole ? 'a whole number' : 'a number'}${range(rules)}`;
}

/**
 * The number in `text`: null when it is blank (the caller decides whether the field is required),
 * else the value, or why it is refused. `2,5` and `2.5` read alike; `2.` and `,5` are 2 and 0.5.
 */
export function parseNumber(text: string, rules: NumberRules): NumberParse {
  const parsed = readNumber(text, rules);
  return !parsed.ok && rules.message !== undefined ? { ok: false, message: rules.message } : parsed;
}

function readNumber(text: string, rules: NumberRules): NumberParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  const match = NUMBER.exec(trimmed);
  const wanted = numberWanted(rules);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
    const example = rules.whole ? '' : ', like 2.5 or 2,5';
    return { ok: false, message: `${rules.label} must be ${wanted}${example}` };
  }
  const [, minus, whole = '', fraction] = match;
  // Any separator in a whole-number field is refused, '12,0' and '1,000' too: it may be a decimal or a
  // thousands separator, and a port or a count read wrongly is worse than one typed again.
  if (rules.whole && fraction !== undefined) return { ok: false, message: `${rules.label} must be ${wanted}, with no decimals` };
  const value = Number(`${minus ? '-' : ''}${whole || '0'}.${fraction || '0'}`);
  if (!Number.isFinite(value)) return { ok: false, message: `${rules.label} must be ${wanted}` };
  if ((rules.min !== undefined && value < rules.min) || (rules.max !== undefined && value > rules.max)) {
    return { ok: false, message: `${rules.label} must be ${wanted}` };
  }
  return { ok: true, value: Object.is(value, -0) ? 0 : value };
}

/** A number back as text for the field: `2.5` stays `2.5`, whole numbers have no decimals. */
export function numberText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}
