import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { authMessages, newPasswordProblem } from '@site/contracts/auth';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';

const refusals = { used: authMessages.resetUsed, expired: authMessages.resetExpired, replaced: authMessages.resetReplaced, unknown: authMessages.resetUnknown } as const;

/** /reset-password#TOKEN: the one-time link an admin made; sets a new password once. */
export default function ResetPasswordPage() {
  const token = useLocation().hash.replace(/^#/, '');
  const status = trpc.auth.resetStatus.useQuery({ token }, { retry: false, refetchOnWindowFocus: false });
  const [newPassword, setNew] = useState('');
  const [confirmPassword, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reset = trpc.auth.resetPassword.useMutation({ onError: (e) => setError(e.message) });
  useEffect(() => {
    document.title = 'Reset password';
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = newPasswordProblem({ newPassword, confirmPassword });
    setError(problem);
    if (!problem) reset.mutate({ token, newPassword, confirmPassword });
  };

  let body;
  if (reset.data) {
    body = (
      <>
        <p role="status">{reset.data.message}</p>
        <p>
          <Link className="button primary" to="/login">
            Log in
          </Link>
        </p>
      </>
    );
  } else if (status.isPending) {
    body = <p>Checking the link...</p>;
  } else if (!status.data || status.data.state !== 'valid') {
    body = <p role="alert">{status.data ? refusals[status.data.state as keyof typeof refusals] : (status.error?.message ?? authMessages.resetUnknown)}</p>;
  } else {
    body = (
      <form onSubmit={onSubmit} aria-labelledby="reset-title" noValidate>
        <p>
          A new password for <strong>{status.data.name}</strong>. {authMessages.resetWillEnd}
        </p>
        <input type="text" name="username" autoComplete="username" value={status.data.name ?? ''} readOnly hidden />
        <TextInput label="New password" name="newPassword" type="password" autoComplete="new-password" value={newPassword} onValueChange={setNew} />
        <TextInput label="Confirm new password" name="confirmPassword" type="password" autoComplete="new-password" value={confirmPassword} onValueChange={setConfirm} />
        <ErrorBubble message={error} testId="reset-error" />
        <button type="submit" className="button primary" disabled={reset.isPending}>
          Set password
        </button>
      </form>
    );
  }
  return (
    <main className="page narrow-page">
      <section className="card" aria-labelledby="reset-title">
        <h1 id="reset-title">Reset password</h1>
        {body}
      </section>
    </main>
  );
}
