import { useState } from 'react';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { Loaded } from '../../components/Loaded.tsx';
import { trpc } from '../../lib/trpc.ts';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Signed-in devices: every session of the account, with Sign out per device and everywhere else. */
export function DevicesCard() {
  const devices = trpc.auth.devices.useQuery();
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const refresh = {
    onMutate: () => setError(null),
    onSuccess: () => void utils.auth.devices.invalidate(),
    onError: (e: { message: string }) => setError(e.message),
  };
  const signOut = trpc.auth.signOutDevice.useMutation(refresh);
  const signOutOthers = trpc.auth.signOutOthers.useMutation(refresh);
  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">Signed-in devices</h2>
      <p>Browsers signed in to your account; last use is exact to the hour. Sign out one you do not know, then change your password.</p>
      <ErrorBubble message={error} />
      <Loaded query={devices} what="the devices" loading="Loading devices...">
        {(list) => (
          <>
            <DataTable
              rows={list}
              rowKey={(d) => d.id}
              columns={[
                { label: 'Browser', cell: (d) => (d.current ? `${d.browser} (this device)` : d.browser) },
                { label: 'Address', cell: (d) => d.address },
                { label: 'Last use', cell: (d) => when(d.lastUsedAt) },
                {
                  label: 'Sign out',
                  hideLabel: true,
                  cell: (d) =>
                    d.current ? null : (
                      <button type="button" className="button" aria-label={`Sign out ${d.browser} at ${d.address}`} onClick={() => signOut.mutate({ id: d.id })}>
                        Sign out
                      </button>
                    ),
                },
              ]}
            />
            <p className="link-row">
              <button type="button" className="button" disabled={list.length < 2 || signOutOthers.isPending} onClick={() => signOutOthers.mutate()}>
                Sign out everywhere else
              </button>
            </p>
          </>
        )}
      </Loaded>
    </section>
  );
}
