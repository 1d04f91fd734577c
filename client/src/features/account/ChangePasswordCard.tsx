import { useState, type FormEvent } from 'react';
import { changePasswordProblem } from '@site/contracts/auth';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';

/** Change password: the current one, the new one twice. Every other session of the account ends, and (unless unticked) its passkeys and tokens. */
export function ChangePasswordCard() {
  const utils = trpc.useUtils();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirmPassword, setConfirm] = useState('');
  const [removeKeys, setRemoveKeys] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const change = trpc.auth.changePassword.useMutation({
    onSuccess: (result) => {
      setDone(result.message);
      setCurrent('');
      setNew('');
      setConfirm('');
      void utils.auth.devices.invalidate();
      void utils.auth.passkeys.invalidate();
      void utils.auth.tokens.invalidate();
    },
    onError: (e) => setError(e.message),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const problem = changePasswordProblem({ currentPassword, newPassword, confirmPassword });
    setError(problem);
    if (!problem) change.mutate({ currentPassword, newPassword, confirmPassword, removeKeys });
  };
  return (
    <form className="card" onSubmit={onSubmit} aria-labelledby="change-password-title" noValidate>
      <h2 id="change-password-title">Change password</h2>
      <TextInput label="Current password" name="currentPassword" type="password" autoComplete="current-password" value={currentPassword} onValueChange={setCurrent} />
      <TextInput label="New password" name="newPassword" type="password" autoComplete="new-password" value={newPassword} onValueChange={setNew} />
      <TextInput label="Confirm new password" name="confirmPassword" type="password" autoComplete="new-password" value={confirmPassword} onValueChange={setConfirm} />
      <label className="checkbox">
        <input type="checkbox" name="removeKeys" checked={removeKeys} onChange={(event) => setRemoveKeys(event.target.checked)} />
        Also remove my passkeys and tokens
      </label>
      <ErrorBubble message={error} testId="change-password-error" />
      {done && <p role="status">{done}</p>}
      <button type="submit" className="button primary" disabled={change.isPending}>
        Change password
      </button>
    </form>
  );
}
