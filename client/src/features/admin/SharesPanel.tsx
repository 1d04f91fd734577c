import type { ShareLink } from '@site/contracts/albums';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadProblem } from '../../components/Loaded.tsx';
import { trpc } from '../../lib/trpc.ts';

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Admins: every working guest link of the site (album, kind, expiry, uses), each with Revoke. */
export function SharesPanel() {
  const utils = trpc.useUtils();
  const links = trpc.shares.active.useQuery();
  const revoke = trpc.shares.revoke.useMutation({ onSuccess: () => utils.shares.invalidate() });
  const rows = links.data ?? [];
  return (
    <section className="card" aria-labelledby="links-title">
      <h2 id="links-title">Shared links</h2>
      <LoadProblem query={links} what="the shared links" />
      <ErrorBubble message={revoke.error ? revoke.error.message : null} />
      {links.data && rows.length === 0 && <p className="small">No working links.</p>}
      {rows.length > 0 && (
        <DataTable<ShareLink>
          rows={rows}
          rowKey={(link) => link.id}
          columns={[
            { label: 'Album', cell: (link) => link.albumName ?? '(no album)' },
            { label: 'Kind', cell: (link) => (link.kind === 'view' ? `View${link.hasPassword ? ' (password)' : ''}${link.includesLocation ? ' (location)' : ''}` : 'Upload') },
            { label: 'Made by', cell: (link) => link.createdBy ?? '(deleted account)' },
            { label: 'Expires', cell: (link) => (link.expiresAt ? new Date(link.expiresAt).toLocaleDateString() : 'Never') },
            { label: 'Uses', cell: (link) => (link.kind === 'view' ? count(link.uses, 'open') : count(link.uploads, 'upload')) },
            {
              label: 'Revoke',
              hideLabel: true,
              cell: (link) => (
                <button type="button" className="button danger" disabled={revoke.isPending} onClick={() => revoke.mutate({ id: link.id })}>
                  Revoke
                </button>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
