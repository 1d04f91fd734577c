import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { LEVEL_NAMES, type Level } from '@site/contracts/levels';
import { pages } from '@site/contracts/pages';
import { canOpen, viewerOf } from '../lib/access.ts';
import { trpc } from '../lib/trpc.ts';
import type { SiteRoute } from '../routes.ts';

/**
 * The client side of the permission table: signed-out visitors go to /login, pending accounts to
 * /preauth, members below the page's level see why. The server enforces the same table anyway.
 */
export function Guard({ route, children }: { route: SiteRoute; children: ReactNode }) {
  const status = trpc.auth.status.useQuery();
  if (status.isPending) return null;
  const viewer = viewerOf(status.data);
  if (route.ungated || canOpen(route.href, viewer)) return <>{children}</>;
  if (viewer === null) return <Navigate to="/login" replace />;
  if (viewer.level < 1) return <Navigate to="/preauth" replace />;
  const access = pages[route.href].access;
  const needed = access === 'public' ? 0 : access;
  return (
    <main className="page narrow-page">
      <section className="card">
        <h1>Not for your level</h1>
        <p>
          {route.label} needs the {LEVEL_NAMES[needed as Level]} level; your account is {LEVEL_NAMES[viewer.level]}. Ask the site owner if you
          need it.
        </p>
      </section>
    </main>
  );
}
