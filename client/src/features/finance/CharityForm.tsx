import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { centsToDecimal, type CharityDraft, type CharityEntry } from '@site/contracts/finance';
import { TextInput } from '../../components/TextInput.tsx';
import type { validateCharity } from './charity-check.ts';
import { DOCUMENT_ACCEPT } from './documents.ts';

/** The form's checks (zod and the finance schemas), their own chunk: fetched when the form shows, used when it is sent. */
let validate: typeof validateCharity | undefined;
async function loadValidate(): Promise<typeof validateCharity> {
  validate ??= (await import('./charity-check.ts')).validateCharity;
  return validate;
}

const today = () => {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

const emptyDraft = (): CharityDraft => ({ recipient: '', value: '', item: '', date: today(), charitable: true });

const draftOf = (entry: CharityEntry): CharityDraft => ({
  recipient: entry.recipient,
  value: entry.valueCents === null ? '' : centsToDecimal(entry.valueCents),
  item: entry.item,
  date: entry.date,
  charitable: entry.charitable,
});

export type CharitySubmit = { draft: CharityDraft; file: File | null; removeDocumentation: boolean };

type Props = {
  /** The entry being edited, or null to add one. */
  editing: CharityEntry | null;
  busy: boolean;
  serverError: string | null;
  onSubmit: (submit: CharitySubmit) => Promise<boolean>;
  /** The checks refused what was typed: the page's last "Entry added." no longer belongs beside it. */
  onRefused: () => void;
  onCancelEdit: () => void;
};

/**
 * 'Add Charity Entry' (or the same form editing an entry). The shared validation from contracts runs
 * first and lists every problem in the spec's order; nothing is sent while there is one.
 */
export function CharityForm({ editing, busy, serverError, onSubmit, onRefused, onCancelEdit }: Props) {
  const [draft, setDraft] = useState<CharityDraft>(() => (editing ? draftOf(editing) : emptyDraft()));
  const [errors, setErrors] = useState<string[]>([]);
  useEffect(() => void loadValidate().catch(() => {}), []);
  const [file, setFile] = useState<File | null>(null);
  const [removeDoc, setRemoveDoc] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { date: useId(), file: useId(), charitable: useId(), remove: useId() };
  const set = <K extends keyof CharityDraft>(key: K, value: CharityDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = (validate ?? (await loadValidate()))(draft);
    if (!check.ok) {
      setErrors(check.errors);
      onRefused();
      return;
    }
    setErrors([]);
    const saved = await onSubmit({ draft, file, removeDocumentation: removeDoc });
    if (saved && !editing) {
      setDraft((d) => ({ ...emptyDraft(), date: d.date }));
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const title = editing ? 'Edit Charity Entry' : 'Add Charity Entry';
  const shown = errors.length > 0 ? errors : serverError ? [serverError] : [];
  return (
    <section className="card" aria-labelledby="charity-form-title">
      <h2 id="charity-form-title">{title}</h2>
      <form className="charity-form" onSubmit={(e) => void submit(e)} noValidate>
        <TextInput label="Recipient" value={draft.recipient} onValueChange={(v) => set('recipient', v)} maxLength={200} autoComplete="off" />
        <TextInput label="Value in USD" value={draft.value} onValueChange={(v) => set('value', v)} inputMode="decimal" placeholder="0.00" autoComplete="off" />
        <TextInput label="Item" value={draft.item} onValueChange={(v) => set('item', v)} maxLength={500} autoComplete="off" />
        <div className="field">
          <label htmlFor={ids.date}>Date</label>
          <input id={ids.date} type="date" value={draft.date} onChange={(e) => set('date', e.target.value)} />
        </div>
        <div className="field charity-check">
          <input id={ids.charitable} type="checkbox" checked={draft.charitable} onChange={(e) => set('charitable', e.target.checked)} />
          <label htmlFor={ids.charitable}>Charitable (tax-deductible)</label>
        </div>
        <div className="field">
          <label htmlFor={ids.file}>{editing?.hasDocumentation ? 'Replace documentation' : 'Documentation'} (PDF, JPEG, PNG or WebP)</label>
          <input
            ref={fileInput}
            id={ids.file}
            type="file"
            accept={DOCUMENT_ACCEPT}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setRemoveDoc(false);
            }}
          />
        </div>
        {editing?.hasDocumentation && (
          <div className="field charity-check">
            <input id={ids.remove} type="checkbox" checked={removeDoc} disabled={file !== null} onChange={(e) => setRemoveDoc(e.target.checked)} />
            <label htmlFor={ids.remove}>Remove the documentation</label>
          </div>
        )}
        <div className="error-bubble-slot" aria-live="assertive">
          {/* The list sits inside the alert: role="alert" on the <ul> itself would take away its list role and leave its items stray. */}
          {shown.length === 1 && (
            <p className="error-bubble" role="alert">
              {shown[0]}
            </p>
          )}
          {shown.length > 1 && (
            <div className="error-bubble" role="alert">
              <ul className="charity-errors">
                {shown.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <div className="link-row">
          <button type="submit" className="button primary" disabled={busy}>
            {editing ? 'Save Entry' : 'Add Entry'}
          </button>
          {editing && (
            <button type="button" className="button" onClick={onCancelEdit}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
