import { useEffect } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { authMessages } from '@site/contracts/auth';
import { owner } from '../../owner.config.ts';
import { useLive } from '../../lib/live.ts';
import { trpc } from '../../lib/trpc.ts';

export default function PreauthPage() {
  const location = useLocation();
  const status = trpc.auth.status.useQuery();
  // The account's own level is live: approval moves this open page to the hub by itself.
  useLive(['account']);
  const state: unknown = location.state;
  const message =
    typeof state === 'object' && state !== null && 'message' in state && typeof state.message === 'string' ? state.message : authMessages.pending;
  useEffect(() => {
    document.title = 'Account pending';
  }, []);
  // An approved member has nothing to wait for: the hub is theirs (also the moment an admin approves).
  if (status.data?.user && status.data.level >= 1) return <Navigate to="/personal" replace />;
  return (
    <main className="page narrow-page">
      <section className="card" aria-labelledby="preauth-title">
        <h1 id="preauth-title">Account pending</h1>
        <p>{message}</p>
        <p>
          Until {owner.name} raises your account's level, the members area stays closed. You can still read the public pages.
        </p>
        <p className="link-row">
          <Link className="button" to="/">
            Home
          </Link>
          <Link className="button" to="/logout">
            Logout
          </Link>
        </p>
      </section>
    </main>
  );
}
