import { useState, type FormEvent } from 'react';
import { authMessages } from '@site/contracts/auth';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { getPasskey, passkeyErrorMessage } from './passkeys.ts';

/** Whether the server asked this session to confirm it is its member before adding a passkey or a token. */
export const needsConfirming = (error: unknown) => error instanceof Error && error.message === authMessages.confirmNeeded;

/**
 * The question asked before a passkey or a token is added by a session that signed in more than
 * REAUTH_MINUTES ago: the password again, or one of the member's passkeys. `onConfirmed` then does
 * what was asked; `onCancel` drops it.
 */
export function ConfirmItIsYou({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirmPassword = trpc.auth.confirmPassword.useMutation();
  const options = trpc.auth.passkeyLoginOptions.useMutation();
  const confirmPasskey = trpc.auth.confirmPasskey.useMutation();
  const [busy, setBusy] = useState(false);

  const run = async (confirm: () => Promise<unknown>) => {
    setError(null);
    setBusy(true);
    try {
      await confirm();
      onConfirmed();
    } catch (e) {
      setError(passkeyErrorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => confirmPassword.mutateAsync({ password }));
  };
  const withPasskey = () => void run(async () => confirmPasskey.mutateAsync({ response: await getPasskey(await options.mutateAsync()) }));

  return (
    <form className="confirm-box" onSubmit={onSubmit} aria-labelledby="confirm-title" noValidate>
      <h3 id="confirm-title">Confirm it is you</h3>
      <p>{authMessages.confirmNeeded}</p>
      <TextInput label="Your password" name="confirmPassword" type="password" autoComplete="current-password" value={password} onValueChange={setPassword} />
      <ErrorBubble message={error} testId="confirm-error" />
      <div className="link-row">
        <button type="submit" className="button primary" disabled={busy}>
          Confirm
        </button>
        <button type="button" className="button" disabled={busy} onClick={withPasskey}>
          Use a passkey
        </button>
        <button type="button" className="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
