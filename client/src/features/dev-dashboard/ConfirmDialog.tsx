import { useEffect, useRef, useState, type FormEvent } from 'react';
import { confirmMatches, devMessages, type DevAction } from '@site/contracts/dev-dashboard';
import { TextInput } from '../../components/TextInput.tsx';
import { FormButtons } from '../../components/FormButtons.tsx';

/**
 * Asks for the action's phrase before anything is sent; a wrong phrase is refused here, and the
 * server checks the same phrase again.
 */
export function ConfirmDialog(props: { action: DevAction; label: string; phrase: string; onConfirm: (typed: string) => void; onCancel: () => void }) {
  const { action, label, phrase, onConfirm, onCancel } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmMatches(action, typed)) {
      setError(devMessages.confirm(phrase));
      return;
    }
    onConfirm(typed);
  };
  return (
    <dialog
      ref={dialog}
      className="welcome-dialog"
      aria-labelledby="dev-confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id="dev-confirm-title">{label}?</h2>
      <form onSubmit={submit}>
        <p>
          This touches production. Type <strong>{phrase}</strong> to go ahead.
        </p>
        <TextInput label={`Type '${phrase}' to confirm`} value={typed} onValueChange={(v) => { setTyped(v); setError(null); }} autoFocus autoComplete="off" />
        <div className="error-bubble-slot" aria-live="assertive">
          {error && (
            <p className="error-bubble" role="alert">
              {error}
            </p>
          )}
        </div>
        <FormButtons className="link-row" submit={<>Run {label}</>} onCancel={onCancel} />
      </form>
    </dialog>
  );
}
