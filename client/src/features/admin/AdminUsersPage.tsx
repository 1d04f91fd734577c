import { useEffect, useState } from 'react';
import { ACCOUNT_LEVELS, LEVEL_NAMES, type Level } from '@site/contracts/levels';
import { DataTable } from '../../components/DataTable.tsx';
import { Loaded } from '../../components/Loaded.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { trpc } from '../../lib/trpc.ts';
import { YtdlpNotice } from './YtdlpNotice.tsx';
import { MediaMissingNotice } from './MediaMissingNotice.tsx';
import { MediaStoreCard } from './MediaStoreCard.tsx';
import { BackupPanel } from './BackupPanel.tsx';
import { PeoplePanel } from './PeoplePanel.tsx';
import { SharesPanel } from './SharesPanel.tsx';

/** The users table: changing a level select saves at once; lowering your own level asks first. */
export default function AdminUsersPage() {
  const users = trpc.admin.users.useQuery();
  const status = trpc.auth.status.useQuery();
  // Your own level, lowered: held here until you confirm it (you may lose this very page).
  const [lowering, setLowering] = useState<{ name: string; level: Level; from: Level } | null>(null);
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const [savedName, setSavedName] = useState<string | null>(null);
  const setLevel = trpc.admin.setLevel.useMutation({
    onMutate: () => {
      setError(null);
      setLowering(null);
      setSavedName(null);
    },
    onSuccess: (row) => {
      utils.admin.users.setData(undefined, (rows) => rows?.map((r) => (r.name === row.name ? { ...r, level: row.level } : r)));
      setSavedName(row.name);
    },
    onError: (e) => setError(e.message),
  });
  const resetLink = trpc.admin.resetLink.useMutation({ onMutate: () => setError(null), onError: (e) => setError(e.message) });
  const link = resetLink.data;
  useEffect(() => {
    document.title = 'Admin Dash';
  }, []);

  return (
    <main className="page admin-page">
      <header className="page-hero">
        <h1>Admin Dash</h1>
        <p className="lead">Accounts and their authentication levels. A change is saved as soon as you pick it.</p>
      </header>
      <MediaStoreCard />
      <MediaMissingNotice />
      <section className="card" aria-labelledby="users-title">
        <h2 id="users-title">Users</h2>
        <ErrorBubble message={error} />
        {lowering && (
          <div className="confirm-box" role="alertdialog" aria-labelledby="lower-own-title" aria-describedby="lower-own-text">
            <h3 id="lower-own-title">Lower your own level?</h3>
            <p id="lower-own-text">
              Your account goes from {LEVEL_NAMES[lowering.from]} to {LEVEL_NAMES[lowering.level]}.
              {lowering.level < 3 && ' You lose this page at once, and only another admin can raise you again.'}
            </p>
            <p className="link-row">
              <button type="button" className="button primary" onClick={() => setLevel.mutate({ name: lowering.name, level: lowering.level })}>
                Lower my level
              </button>
              <button type="button" className="button" onClick={() => setLowering(null)}>
                Cancel
              </button>
            </p>
          </div>
        )}
        {link && (
          <div className="confirm-box done-box" role="status" aria-label="Reset link">
            <p>
              A one-time link for <strong>{link.name}</strong> to set a new password, valid until{' '}
              {new Date(link.expiresAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}. Send it to them privately.
            </p>
            <CopyButton label="Reset link" text={link.url ?? `${window.location.origin}${link.path}`} alert="Reset link copied" />
          </div>
        )}
        <Loaded query={users} what="the users" loading="Loading users...">
          {(list) =>
            (
          <DataTable
            rows={list}
            rowKey={(user) => user.name}
            columns={[
              { label: 'Name', cell: (user) => user.name },
              {
                label: 'Authentication level',
                cell: (user) => (
                    <span>
                      <select
                        aria-label={`Level of ${user.name}`}
                        value={user.level}
                        disabled={setLevel.isPending && setLevel.variables?.name === user.name}
                        onChange={(event) => {
                          const level = Number(event.target.value) as Level;
                          if (user.name === status.data?.user && level < user.level) setLowering({ name: user.name, level, from: user.level as Level });
                          else setLevel.mutate({ name: user.name, level });
                        }}
                      >
                        {ACCOUNT_LEVELS.map((level) => (
                          <option key={level} value={level}>
                            {level} - {LEVEL_NAMES[level]}
                          </option>
                        ))}
                      </select>
                      {savedName === user.name && (
                        <span className="saved-note" role="status">
                          Saved
                        </span>
                      )}
                    </span>
                ),
              },
              {
                label: 'Password',
                cell: (user) => (
                  <button type="button" className="button" aria-label={`Reset link for ${user.name}`} onClick={() => resetLink.mutate({ name: user.name })}>
                    Reset link
                  </button>
                ),
              },
            ]}
          />
        )
          }
        </Loaded>
      </section>
      <YtdlpNotice />
      <SharesPanel />
      <BackupPanel />
      <PeoplePanel />
    </main>
  );
}
