import { useEffect, useState, type FormEvent } from 'react';
import { GAME_SERVER_GAMES, OTHER_GAME, gameNameOf, gameServerMessages, type GameServer, type GameServerGame } from '@site/contracts/game-servers';
import { LoadedTable } from '../../components/LoadedTable.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { NumberInput } from '../../components/NumberInput.tsx';
import { parseNumber } from '../../components/number.ts';
import { TextInput } from '../../components/TextInput.tsx';
import { viewerOf } from '../../lib/access.ts';
import { copyAndAlert } from '../../lib/clipboard.ts';
import { useLive } from '../../lib/live.ts';
import { trpc } from '../../lib/trpc.ts';
import { Sparkline } from './Sparkline.tsx';
import './game-servers.css';

/** The server asks each game server at most every 30 s; the list refreshes while the page is open. */
const REFRESH_MS = 15_000;

type Draft = { id: number | null; port: string; description: string; game: GameServerGame };
const EMPTY: Draft = { id: null, port: '', description: '', game: OTHER_GAME };
const PORT_RULES = { label: 'Port', whole: true, min: 1, max: 65535, message: gameServerMessages.badPort } as const;

/** "10:42" today, "Mon 23 Nov, 10:42" before. */
function since(iso: string): string {
  const at = new Date(iso);
  const today = at.toDateString() === new Date().toDateString();
  return at.toLocaleString(undefined, today ? { hour: '2-digit', minute: '2-digit' } : { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** Players now, a sparkline of the last 24 hours and the names the protocol gives. */
function Players({ server }: { server: GameServer }) {
  const history = server.history.map((h) => h.players);
  if (!server.players && history.length === 0) return <span className="muted">{server.game === OTHER_GAME ? 'Not counted' : '-'}</span>;
  const most = Math.max(0, ...history);
  return (
    <div className="server-players">
      <span className="server-count">{server.players ? `${server.players.online} / ${server.players.max}` : '-'}</span>
      {history.length > 0 && <Sparkline points={server.history} label={`Players over the last 24 hours: at most ${most}, now ${server.players?.online ?? 0}`} />}
      {server.playerNames.length > 0 && <span className="server-names">{server.playerNames.join(', ')}</span>}
    </div>
  );
}

/**
 * Online, Offline or Unknown as last stored; "Checking..." for a server not asked yet (just added, or
 * its port or game changed): its answer comes in the background and the live feed refreshes the list.
 */
export function ServerStatus({ server }: { server: Pick<GameServer, 'status' | 'checkedAt'> }) {
  if (server.checkedAt === null) {
    return (
      <span className="server-status checking" role="status">
        Checking...
      </span>
    );
  }
  return <span className={`server-status ${server.status.toLowerCase()}`}>{server.status}</span>;
}

/** Map, version, ping and since when it is up: whatever the protocol told. */
function Details({ server }: { server: GameServer }) {
  const parts = [
    server.map && `Map ${server.map}`,
    server.version && `Version ${server.version}`,
    server.pingMs !== null && `${server.pingMs} ms`,
    server.onlineSince && `Online since ${since(server.onlineSince)}`,
  ].filter(Boolean);
  return parts.length > 0 ? <div className="server-details">{parts.join(' · ')}</div> : null;
}

/** Admins add, edit and remove servers here. */
function ServerForm({ draft, setDraft }: { draft: Draft; setDraft: (d: Draft) => void }) {
  const utils = trpc.useUtils();
  const done = () => {
    setDraft(EMPTY);
    void utils.gameServers.list.invalidate();
  };
  const add = trpc.gameServers.add.useMutation({ onSuccess: done });
  const update = trpc.gameServers.update.useMutation({ onSuccess: done });
  const error = add.error ?? update.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseNumber(draft.port, PORT_RULES);
    // A refused port is already explained under the field; a blank one goes to the server, which names the range.
    if (!parsed.ok) return;
    const port = parsed.value ?? 0;
    if (draft.id === null) add.mutate({ port, description: draft.description, game: draft.game });
    else update.mutate({ id: draft.id, port, description: draft.description, game: draft.game });
  };
  return (
    <section className="card" aria-labelledby="server-form-title">
      <h2 id="server-form-title">{draft.id === null ? 'Add Server' : `Edit Server (port ${draft.port})`}</h2>
      <form onSubmit={submit} className="server-form">
        <NumberInput id="server-port" className="server-port" rules={PORT_RULES} required value={draft.port} onValueChange={(port) => setDraft({ ...draft, port })} />
        <div className="field server-game">
          <label htmlFor="server-game">Game</label>
          <select id="server-game" value={draft.game} onChange={(e) => setDraft({ ...draft, game: e.target.value as GameServerGame })}>
            {GAME_SERVER_GAMES.map((game) => (
              <option key={game.id} value={game.id}>
                {game.name}
              </option>
            ))}
          </select>
        </div>
        <TextInput label="Description" value={draft.description} onValueChange={(description) => setDraft({ ...draft, description })} maxLength={200} required />
        <div className="link-row">
          <button type="submit" className="button primary" disabled={add.isPending || update.isPending}>
            {draft.id === null ? (add.isPending ? 'Adding...' : 'Add') : update.isPending ? 'Saving...' : 'Save'}
          </button>
          {draft.id !== null && (
            <button type="button" className="button" onClick={() => setDraft(EMPTY)}>
              Cancel
            </button>
          )}
        </div>
      </form>
      <ErrorBubble message={error ? error.message : null} />
    </section>
  );
}

export default function GameServersPage() {
  const status = trpc.auth.status.useQuery();
  const admin = (viewerOf(status.data)?.level ?? 0) >= 3;
  const servers = trpc.gameServers.list.useQuery(undefined, { refetchInterval: REFRESH_MS });
  useLive(['gameServers']);
  const utils = trpc.useUtils();
  // Follow: a push when the server stops answering or comes back (notifications).
  const followed = trpc.notifications.followed.useQuery();
  const follow = trpc.notifications.follow.useMutation({
    onSuccess: (ids) => utils.notifications.followed.setData(undefined, ids),
    onError: (error) => window.alert(error.message),
  });
  const following = new Set(followed.data?.ids ?? []);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const remove = trpc.gameServers.remove.useMutation({
    onError: (error) => window.alert(error.message),
    onSettled: () => void utils.gameServers.list.invalidate(),
  });
  useEffect(() => {
    document.title = 'Game Servers';
  }, []);

  const confirmRemove = (server: GameServer) => {
    if (window.confirm(`Remove ${server.description} (port ${server.port})?`)) remove.mutate({ id: server.id });
  };

  return (
    <main className="page game-servers-page">
      <header className="page-hero">
        <h1>Game Servers</h1>
        <p className="lead">Click a port to copy the address to join.</p>
      </header>
      <section className="card" aria-labelledby="servers-title">
        <h2 id="servers-title">Active Servers:</h2>
        <LoadedTable
          query={servers}
          what="the servers"
          loading="Loading the servers..."
          empty="No servers are listed."
          rowKey={(server) => server.id}
          columns={[
            { label: 'Status', cell: (server) => <ServerStatus server={server} /> },
            {
              label: 'Port',
              cell: (server) => (
                    <button
                      type="button"
                      className="button server-port-button"
                      title={`Copy ${server.address}`}
                      aria-label={`${server.port}: copy ${server.address}`}
                      onClick={() => void copyAndAlert(server.address, gameServerMessages.copied)}
                    >
                      {server.port}
                    </button>
              ),
            },
            { label: 'Game', cell: (server) => gameNameOf(server.game) },
            { label: 'Players', cell: (server) => <Players server={server} /> },
            {
              label: 'Description',
              className: 'server-description',
              cell: (server) => (
                <>
                  {server.description}
                  <Details server={server} />
                </>
              ),
            },
            {
              label: 'Follow',
              cell: (server: GameServer) => (
                <label className="server-follow">
                  <input
                    type="checkbox"
                    checked={following.has(server.id)}
                    disabled={!followed.data || follow.isPending}
                    aria-label={`Follow ${server.description}: tell me when it stops or comes back`}
                    onChange={(e) => follow.mutate({ id: server.id, follow: e.target.checked })}
                  />{' '}
                  Follow
                </label>
              ),
            },
            ...(admin
              ? [
                  {
                    label: 'Manage',
                    hideLabel: true,
                    className: 'server-actions',
                    cell: (server: GameServer) => (
                      <div>
                      <button
                        type="button"
                        className="button"
                        aria-label={`Edit ${server.description}`}
                        onClick={() => setDraft({ id: server.id, port: String(server.port), description: server.description, game: server.game })}
                      >
                        Edit
                      </button>
                      <button type="button" className="button" aria-label={`Remove ${server.description}`} onClick={() => confirmRemove(server)}>
                        Remove
                      </button>
                      </div>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </section>
      {admin && <ServerForm key={draft.id ?? 'new'} draft={draft} setDraft={setDraft} />}
    </main>
  );
}
