import type { ComponentProps } from 'react';
import { parseNumber, type NumberRules } from './number.ts';
import { TextInput } from './TextInput.tsx';

type Props = Omit<ComponentProps<typeof TextInput>, 'error' | 'type' | 'inputMode' | 'label'> & {
  rules: NumberRules;
  /** The visible label; the rules' label (which starts the messages) when not given. */
  label?: string;
};

/**
 * The one number field of the site. It keeps the text as typed (a browser's number input drops a
 * decimal comma, or the whole value, without a word) and says at once what is wrong with it: a
 * decimal in a whole-number field, text, a value out of range. The phone shows digits, with a
 * separator key where decimals make sense. The page reads the value with `parseNumber(text, rules)`.
 */
export function NumberInput({ rules, label, value, ...rest }: Props) {
  const parsed = parseNumber(value, rules);
  return (
    <TextInput
      {...rest}
      label={label ?? rules.label}
      value={value}
      type="text"
      inputMode={rules.whole && (rules.min ?? -1) >= 0 ? 'numeric' : 'decimal'}
      autoComplete="off"
      error={parsed.ok ? null : parsed.message}
    />
  );
}
