import { useEffect, useRef, useState } from 'react';
import type { DevAction, DevActionState, DevRun } from '@site/contracts/dev-dashboard';
import { LoadedTable } from '../../components/LoadedTable.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import './dev-dashboard.css';

/** How often the page asks for the output of a running action. */
const POLL_MS = 500;

const EXAMPLE = `{
  "dev-pull": { "argv": ["git", "pull"], "cwd": "/srv/site-dev", "timeoutSeconds": 300 },
  "prod-pull": { "argv": ["git", "pull"], "cwd": "/srv/site" },
  "dev-launch": { "argv": ["npm", "run", "dev"], "cwd": "/srv/site-dev" },
  "reboot": { "argv": ["sudo", "systemctl", "restart", "site"] }
}`;

export const formatDuration = (ms: number | null) => (ms === null ? '' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
const formatWhen = (iso: string) => new Date(iso).toLocaleString();

function statusLine(run: DevRun): string {
  if (run.status === 'running') return `${run.action} is running...`;
  const code = run.exitCode === null ? '' : `, exit code ${run.exitCode}`;
  return `${run.action} ${run.status}${code}, after ${formatDuration(run.durationMs)}`;
}

/** The owner's four buttons, the live output of the current run, and the log of every run. */
export default function DevDashboardPage() {
  const utils = trpc.useUtils();
  const status = trpc.devDashboard.status.useQuery();
  const runs = trpc.devDashboard.runs.useQuery();
  const [runId, setRunId] = useState<number | null>(null);
  const [asking, setAsking] = useState<DevActionState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const outputRef = useRef<HTMLPreElement>(null);

  // After a reload the page picks up a run that is still going.
  const activeId = runId ?? status.data?.running?.id ?? null;
  const current = trpc.devDashboard.run.useQuery(
    { id: activeId ?? 0 },
    { enabled: activeId !== null, refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false) },
  );
  const run = current.data;
  const running = run?.status === 'running';

  useEffect(() => {
    document.title = 'Dev Dash';
  }, []);
  useEffect(() => {
    if (run && !running) {
      void utils.devDashboard.runs.invalidate();
      void utils.devDashboard.status.invalidate();
    }
  }, [run, running, utils]);
  useEffect(() => {
    const element = outputRef.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [run?.output]);

  const onStarted = (started: DevRun) => {
    setRunId(started.id);
    utils.devDashboard.run.setData({ id: started.id }, started);
    void utils.devDashboard.runs.invalidate();
  };
  const options = { onSuccess: onStarted, onError: (e: { message: string }) => setError(e.message) };
  const mutations: Record<DevAction, { mutate: (input: { confirm?: string }) => void; isPending: boolean }> = {
    'dev-pull': trpc.devDashboard.devPull.useMutation(options),
    'prod-pull': trpc.devDashboard.prodPull.useMutation(options),
    'dev-launch': trpc.devDashboard.devLaunch.useMutation(options),
    reboot: trpc.devDashboard.reboot.useMutation(options),
  };
  const starting = Object.values(mutations).some((m) => m.isPending);

  const press = (action: DevActionState) => {
    setError(null);
    if (action.confirmPhrase) setAsking(action);
    else mutations[action.action].mutate({});
  };

  return (
    <main className="page dev-page">
      <header className="page-hero">
        <h1>Dev Dash</h1>
        <p className="lead">Pull, launch and reboot. One action runs at a time; every run is logged below.</p>
      </header>

      {status.data?.problem && (
        <section className="card dev-setup" aria-labelledby="dev-setup-title">
          <h2 id="dev-setup-title">Not configured</h2>
          <p>{status.data.problem}</p>
          <p>For example, a file like this, named by DEV_COMMANDS_FILE when the server starts:</p>
          <pre className="dev-output">{EXAMPLE}</pre>
        </section>
      )}

      <section className="card" aria-labelledby="dev-actions-title">
        <h2 id="dev-actions-title">Actions</h2>
        <div className="dev-buttons">
          {(status.data?.actions ?? []).map((action) => (
            <button
              key={action.action}
              type="button"
              className={`button${action.confirmPhrase ? ' dev-prod' : ''}`}
              disabled={!action.configured || running || starting}
              title={action.configured ? undefined : `${action.action} is not configured`}
              onClick={() => press(action)}
            >
              {action.label}
            </button>
          ))}
        </div>
        <ErrorBubble message={error ?? (status.error ? status.error.message : null)} />
        {run && (
          <div className="dev-run">
            <p role="status" className={`dev-status dev-status-${run.status.replace(/\s+/g, '-')}`}>
              {statusLine(run)}
            </p>
            <pre ref={outputRef} className="dev-output" aria-label={`Output of ${run.action}`} tabIndex={0}>
              {run.output || (running ? 'Waiting for output...' : '(no output)')}
            </pre>
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="dev-audit-title">
        <h2 id="dev-audit-title">Audit log</h2>
        <LoadedTable
          query={runs}
          what="the audit log"
          loading="Loading runs..."
          empty="No runs yet."
          className="dev-audit"
          rowKey={(r) => r.id}
          columns={[
            { label: 'When', className: 'dev-nowrap', cell: (r) => formatWhen(r.startedAt) },
            { label: 'Who', cell: (r) => r.who },
            { label: 'Action', className: 'dev-nowrap', cell: (r) => r.action },
            { label: 'Result', className: 'dev-nowrap', cell: (r) => r.status },
            { label: 'Exit code', cell: (r) => r.exitCode ?? '' },
            { label: 'Duration', className: 'dev-nowrap', cell: (r) => formatDuration(r.durationMs) },
            { label: 'Last lines of output', cell: (r) => <pre className="dev-tail">{r.output}</pre> },
          ]}
        />
      </section>

      {asking?.confirmPhrase && (
        <ConfirmDialog
          action={asking.action}
          label={asking.label}
          phrase={asking.confirmPhrase}
          onCancel={() => setAsking(null)}
          onConfirm={(typed) => {
            const action = asking.action;
            setAsking(null);
            mutations[action].mutate({ confirm: typed });
          }}
        />
      )}
    </main>
  );
}
