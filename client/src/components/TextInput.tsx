import { useId, useState, type InputHTMLAttributes, type KeyboardEvent } from 'react';

export const CTRL_ENTER_HINT = 'Hold ctrl to submit with enter';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Called on ctrl+Enter when the input is not inside a form; inside a form the form is submitted. */
  onSubmitShortcut?: () => void;
};

/**
 * The one text input of the site. Enter alone does not submit (it shows a hint), ctrl+Enter does:
 * a stray Enter in a half-filled form should never send it.
 */
export function TextInput({ label, value, onValueChange, onSubmitShortcut, id, className, ...rest }: Props) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const hintId = `${inputId}-hint`;
  const [hint, setHint] = useState(false);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (event.ctrlKey || event.metaKey) {
      setHint(false);
      const form = event.currentTarget.form;
      if (form) form.requestSubmit();
      else onSubmitShortcut?.();
    } else {
      setHint(true);
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
          setHint(false);
          onValueChange(event.target.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setHint(false)}
      />
      {hint && (
        <p className="field-hint" id={hintId} role="status">
          {CTRL_ENTER_HINT}
        </p>
      )}
    </div>
  );
}
