/** "1 change waiting", "2 changes waiting". */
export function waitingText(waiting: number): string {
  return `${waiting} change${waiting === 1 ? '' : 's'} waiting`;
}

/**
 * The line a list page shows above its lists while it holds changes not yet sent: "2 changes waiting".
 * Nothing else: that the site cannot be reached is the banner's to say (components/Loaded.tsx), once.
 */
export function SyncStatus({ waiting = 0 }: { waiting?: number }) {
  return (
    <p className="sync-status" role="status" hidden={waiting === 0}>
      {waiting > 0 && <span className="sync-badge">{waitingText(waiting)}</span>}
    </p>
  );
}
