import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';

/** A labelled field of the shape TextInput has (div.field, label, control), for a select or another input. */
export function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

export function SelectField({ label, value, onValueChange, children, ...rest }: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange'> & { label: string; value: string; onValueChange: (value: string) => void }) {
  return (
    <Field label={label}>
      {(id) => (
        <select {...rest} id={id} value={value} onChange={(e) => onValueChange(e.target.value)}>
          {children}
        </select>
      )}
    </Field>
  );
}
