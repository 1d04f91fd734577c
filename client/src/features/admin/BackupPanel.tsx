import type { BackupRun, BackupStatus } from '@site/contracts/backups';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const megabytes = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });
const size = (bytes: number) => megabytes.format(bytes / (1024 * 1024));

function LastBackup({ run }: { run: BackupRun | null }) {
  if (!run) return <>None yet</>;
  const by = run.kind === 'scheduled' ? 'scheduled' : 'by npm run backup';
  const head = `${when(run.finishedAt ?? run.startedAt)} (${by}), ${run.file}`;
  if (run.error !== null) return <span className="backup-failed">{`${head}: failed: ${run.error}`}</span>;
  const kept = run.removed ? ', since removed under BACKUP_KEEP' : '';
  return <>{`${head}, ${run.sizeBytes === null ? 'size unknown' : size(run.sizeBytes)}, ${run.verified ? 'verified' : 'not verified'}${kept}`}</>;
}

/** What the Admin page says about backups: the last one (when, size, verified or why it failed) and the next. */
export function BackupSummary({ status }: { status: BackupStatus }) {
  const { keep } = status;
  return (
    <>
      {status.running && <p role="status">{`A backup is being written (started ${when(status.running.startedAt)}).`}</p>}
      <dl className="backup-summary">
        <dt>Last backup</dt>
        <dd>
          <LastBackup run={status.last} />
        </dd>
        <dt>Next backup</dt>
        <dd>{status.next ? `${when(status.next)} (every day at ${status.at})` : 'Not scheduled: set BACKUP_DIR for the server to make them'}</dd>
        {status.scheduled && (
          <>
            <dt>Kept</dt>
            <dd>{`The newest of the last ${keep.days} days, ${keep.weeks} weeks and ${keep.months} months`}</dd>
          </>
        )}
      </dl>
    </>
  );
}

export function BackupPanel() {
  const status = trpc.backups.status.useQuery();
  return (
    <section className="card" aria-labelledby="backups-title">
      <h2 id="backups-title">Backups</h2>
      <ErrorBubble message={status.error ? status.error.message : null} />
      {status.data ? <BackupSummary status={status.data} /> : !status.error && <p role="status">Loading backups...</p>}
    </section>
  );
}
