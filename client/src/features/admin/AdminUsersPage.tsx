import { useEffect, useState } from 'react';
import { ACCOUNT_LEVELS, LEVEL_NAMES, type Level } from '@site/contracts/levels';
import { DataTable } from '../../components/DataTable.tsx';
import { Loaded } from '../../components/Loaded.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';
import { YtdlpNotice } from './YtdlpNotice.tsx';
import { MediaMissingNotice } from './MediaMissingNotice.tsx';
import { BackupPanel } from './BackupPanel.tsx';

/** The users table: changing a level select saves at once. */
export default function AdminUsersPage() {
  const users = trpc.admin.users.useQuery();
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const [savedName, setSavedName] = useState<string | null>(null);
  const setLevel = trpc.admin.setLevel.useMutation({
    onMutate: () => {
      setError(null);
      setSavedName(null);
    },
    onSuccess: (row) => {
      utils.admin.users.setData(undefined, (rows) => rows?.map((r) => (r.name === row.name ? { ...r, level: row.level } : r)));
      setSavedName(row.name);
    },
    onError: (e) => setError(e.message),
  });
  useEffect(() => {
    document.title = 'Admin Dash';
  }, []);

  return (
    <main className="page admin-page">
      <header className="page-hero">
        <h1>Admin Dash</h1>
        <p className="lead">Accounts and their authentication levels. A change is saved as soon as you pick it.</p>
      </header>
      <MediaMissingNotice />
      <section className="card" aria-labelledby="users-title">
        <h2 id="users-title">Users</h2>
        <ErrorBubble message={error} />
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
                        onChange={(event) => setLevel.mutate({ name: user.name, level: Number(event.target.value) as Level })}
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
            ]}
          />
        )
          }
        </Loaded>
      </section>
      <YtdlpNotice />
      <BackupPanel />
    </main>
  );
}
