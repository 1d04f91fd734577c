import { useOnline } from '../lib/online.ts';

/** "1 change waiting", "2 changes waiting". */
export function waitingText(waiting: number): string {
  return `${waiting} change${waiting === 1 ? '' : 's'} waiting`;
}

/**
 * The line a list page shows above its lists while it cannot reach the server or holds changes not yet
 * sent: "Offline", "2 changes waiting", or both. Nothing when online with nothing waiting.
 */
export function SyncStatus({ waiting = 0 }: { waiting?: number }) {
  const online = useOnline();
  const parts = [!online ? 'Offline' : null, waiting > 0 ? waitingText(waiting) : null].filter((p) => p !== null);
  return (
    <p className="sync-status" role="status" hidden={parts.length === 0}>
      {parts.map((part) => (
        <span key={part} className="sync-badge">
          {part}
        </span>
      ))}
    </p>
  );
}
