import { useEffect } from 'react';
import { trpc } from '../../lib/trpc.ts';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { DevicesCard } from './DevicesCard.tsx';
import { ApiTokensCard } from './ApiTokensCard.tsx';
import { PasskeysCard } from './PasskeysCard.tsx';
import { NotificationsCard } from './NotificationsCard.tsx';
import { CalendarFeedCard } from './CalendarFeedCard.tsx';
import { WebhooksCard } from './WebhooksCard.tsx';

/** /personal/account: the signed-in member's own account (every level, pending ones too). */
export default function AccountPage() {
  const status = trpc.auth.status.useQuery();
  useEffect(() => {
    document.title = 'Account';
  }, []);
  return (
    <main className="page narrow-page account-page">
      <header className="page-hero">
        <h1>Account</h1>
        {status.data?.user && (
          <p className="lead">
            Signed in as <strong>{status.data.user}</strong>.
          </p>
        )}
      </header>
      <ChangePasswordCard />
      <DevicesCard />
      <PasskeysCard />
      <ApiTokensCard />
      <WebhooksCard />
      {status.data?.user && status.data.level >= 1 && <NotificationsCard />}
      <CalendarFeedCard />
    </main>
  );
}
