import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';
import { useWaitingChanges } from '../../lib/use-offline-queue.ts';

export default function LogoutPage() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const logout = trpc.auth.logout.useMutation();
  const [failed, setFailed] = useState<string | null>(null);
  const started = useRef(false);
  // Changes made offline and not sent yet are sent only as this account: signing out loses them, so ask first.
  const waiting = useWaitingChanges();
  const [confirmed, setConfirmed] = useState(false);

  const run = () => {
    setFailed(null);
    logout.mutate(undefined, {
      onSuccess: async () => {
        // Everything cached belonged to the account that just left; the shell refetches as a visitor.
        await utils.invalidate();
        void navigate('/about', { replace: true });
      },
      onError: (error) => setFailed(error.message),
    });
  };

  useEffect(() => {
    // Once, even under StrictMode's double effects.
    if (started.current || waiting.count === undefined || (waiting.count > 0 && !confirmed)) return;
    started.current = true;
    run();
  });

  if (waiting.count !== undefined && waiting.count > 0 && !confirmed) {
    const changes = waiting.count === 1 ? '1 change' : `${waiting.count} changes`;
    return (
      <main className="page narrow-page">
        <section className="card" aria-labelledby="logout-unsent">
          <h1 id="logout-unsent">{changes} not sent yet</h1>
          <p>
            {waiting.count === 1 ? 'It was' : 'They were'} made while the site could not be reached and {waiting.count === 1 ? 'is' : 'are'} sent only while you are signed in. Sign out anyway and {waiting.count === 1 ? 'it is' : 'they are'} lost.
          </p>
          <div className="link-row">
            <button type="button" className="button" onClick={() => void waiting.discard().then(() => setConfirmed(true))}>
              Sign out anyway
            </button>
            <button type="button" className="button" onClick={() => void (window.history.length > 1 ? navigate(-1) : navigate('/personal'))}>
              Stay signed in
            </button>
          </div>
        </section>
      </main>
    );
  }

  return (
    <main className="page narrow-page">
      <section className="card">
        <h1>Logout</h1>
        {failed ? (
          <>
            <p className="error-text" role="alert">
              {failed}
            </p>
            <button type="button" className="button" onClick={run}>
              Try again
            </button>
          </>
        ) : (
          <p role="status">Logging you out...</p>
        )}
      </section>
    </main>
  );
}
