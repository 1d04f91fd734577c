import { useId, useState, type InputHTMLAttributes, type KeyboardEvent, type PointerEvent, type TextareaHTMLAttributes } from 'react';
import { coarsePointer } from '../lib/pointer.ts';

export const CTRL_ENTER_HINT = 'Hold ctrl to submit with enter';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Called on ctrl+Enter (Enter alone on a touch screen) when the input is not inside a form; inside a form the form is submitted. */
  onSubmitShortcut?: () => void;
  /** What is wrong with the value as typed, shown under the field (NumberInput's refusals). */
  error?: string | null;
  /**
   * For a field in a table row: the label is read by screen readers only, and the error only marks
   * the field (the page says what is wrong once, under the table).
   */
  compact?: boolean;
  /**
   * A text of several lines (a comment): a textarea where Enter alone starts a new line on a keyboard;
   * ctrl+Enter sends, and Enter does on a touch screen, as in a one-line field.
   */
  multiline?: boolean;
  /**
   * The one field of its form (Add a tag): Enter alone submits on a keyboard too, since there is no
   * half-filled form for a stray Enter to send.
   */
  enterSubmits?: boolean;
};

/** Whether the person reached the field by touch (the last pointer down was a finger or pen, else the screen's main pointer is coarse). */
function usingTouch(lastPointer: string | null): boolean {
  if (lastPointer !== null) return lastPointer === 'touch' || lastPointer === 'pen';
  return coarsePointer();
}

/**
 * The one text input of the site. On a keyboard Enter alone does not submit (it shows a hint),
 * ctrl+Enter does: a stray Enter in a half-filled form should never send it. A phone's keyboard has
 * no ctrl: there its Enter ("Go") submits the form, as people expect.
 *
 * The hint's line is always reserved (the hint sits in the field's bottom padding), and it stays
 * until the next keystroke: a hint that left on blur moved the form's button away under the mouse,
 * so the click that blurred the field landed on nothing.
 */
export function TextInput({ label, value, onValueChange, onSubmitShortcut, error, compact, multiline, enterSubmits, id, className, onPointerDown, ...rest }: Props) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [hint, setHint] = useState<string | null>(null);
  const [pointer, setPointer] = useState<string | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (event.key !== 'Enter') {
      setHint(null);
      return;
    }
    const send = (enterSubmits && !multiline) || event.ctrlKey || event.metaKey || usingTouch(pointer);
    // A new line of a multi-line text.
    if (multiline && !send) return;
    event.preventDefault();
    if (send) {
      setHint(null);
      const form = event.currentTarget.form;
      if (form) form.requestSubmit();
      else onSubmitShortcut?.();
    } else {
      setHint(CTRL_ENTER_HINT);
    }
  };
  const shownError = compact ? null : error;
  const describedBy = [hint ? hintId : null, shownError ? errorId : null].filter(Boolean).join(' ');
  const shared = {
    id: inputId,
    value,
    'aria-describedby': describedBy || undefined,
    'aria-invalid': error ? true : undefined,
    onChange: (event: { target: { value: string } }) => {
      setHint(null);
      onValueChange(event.target.value);
    },
    onPointerDown: (event: PointerEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setPointer(event.pointerType);
      onPointerDown?.(event as PointerEvent<HTMLInputElement>);
    },
    onKeyDown,
  };

  return (
    <div className={`field${compact ? ' compact-field' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={inputId} className={compact ? 'visually-hidden' : undefined}>
        {label}
      </label>
      {multiline ? (
        <textarea {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)} rows={3} {...shared} />
      ) : (
        <input {...rest} {...shared} />
      )}
      {shownError && (
        <p className="field-error" id={errorId} role="alert">
          {shownError}
        </p>
      )}
      <p className="field-hint" id={hintId} role="status">
        {hint}
      </p>
    </div>
  );
}
