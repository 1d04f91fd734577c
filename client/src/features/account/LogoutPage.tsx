import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';

export default function LogoutPage() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const logout = trpc.auth.logout.useMutation();
  const [failed, setFailed] = useState<string | null>(null);
  const started = useRef(false);

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
    if (started.current) return;
    started.current = true;
    run();
  });

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
