import { useId, useState, type InputHTMLAttributes, type KeyboardEvent } from 'react';

export const CTRL_ENTER_HINT = 'Hold ctrl to submit with enter';
/** Touch screens have no ctrl key: the hint points at the button instead. */
export const TAP_HINT = 'Tap the button to submit';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Called on ctrl+Enter when the input is not inside a form; inside a form the form is submitted. */
  onSubmitShortcut?: () => void;
};

/** Whether the person reached the field by touch (the last pointer down was a finger or pen on a coarse screen). */
function usingTouch(lastPointer: string | null): boolean {
  if (lastPointer !== null) return lastPointer === 'touch';
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

/**
 * The one text input of the site. Enter alone does not submit (it shows a hint), ctrl+Enter does:
 * a stray Enter in a half-filled form should never send it.
 *
 * The hint's line is always reserved (the hint sits in the field's bottom padding), and it stays
 * until the next keystroke: a hint that left on blur moved the form's button away under the mouse,
 * so the click that blurred the field landed on nothing.
 */
export function TextInput({ label, value, onValueChange, onSubmitShortcut, id, className, onPointerDown, ...rest }: Props) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const hintId = `${inputId}-hint`;
  const [hint, setHint] = useState<string | null>(null);
  const [pointer, setPointer] = useState<string | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') {
      setHint(null);
      return;
    }
    event.preventDefault();
    if (event.ctrlKey || event.metaKey) {
      setHint(null);
      const form = event.currentTarget.form;
      if (form) form.requestSubmit();
      else onSubmitShortcut?.();
    } else {
      setHint(usingTouch(pointer) ? TAP_HINT : CTRL_ENTER_HINT);
    }
  };

  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={inputId}>{label}</label>
      <input
        {...rest}
        id={inputId}
        value={value}
        aria-describedby={hint ? hintId : undefined}
        onChange={(event) => {
          setHint(null);
          onValueChange(event.target.value);
        }}
        onPointerDown={(event) => {
          setPointer(event.pointerType);
          onPointerDown?.(event);
        }}
        onKeyDown={onKeyDown}
      />
      <p className="field-hint" id={hintId} role="status">
        {hint}
      </p>
    </div>
  );
}
