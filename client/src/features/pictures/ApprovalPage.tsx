import { useEffect } from 'react';
import { mediaUrl } from '@site/contracts/pictures';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadProblem } from '../../components/Loaded.tsx';
import { useLive } from '../../lib/live.ts';
import { trpc } from '../../lib/trpc.ts';
import { takenOn, Thumb } from './media.tsx';
import './pictures.css';

/** Admins: pictures uploaded by Friend accounts, each shown, to approve or reject. */
export default function ApprovalPage() {
  const utils = trpc.useUtils();
  const pending = trpc.pictures.pending.useQuery();
  useLive(['pictures']);
  const refresh = () => utils.pictures.invalidate();
  const approve = trpc.pictures.approve.useMutation({ onSuccess: refresh });
  const reject = trpc.pictures.reject.useMutation({ onSuccess: refresh });
  useEffect(() => {
    document.title = 'Approve Pictures';
  }, []);
  const list = pending.data ?? [];
  const error = approve.error ?? reject.error;
  return (
    <main className="page approval-page">
      <h1>Approve Pictures</h1>
      <LoadProblem query={pending} what="the pictures waiting for approval" />
      <ErrorBubble message={error ? error.message : null} />
      {pending.data && list.length === 0 && <p className="card">Nothing is waiting for approval.</p>}
      <ul className="approval-list" data-testid="approval-list">
        {list.map((picture, i) => (
          <li key={picture.id} className="card approval-item">
            <a
              href={picture.display ? mediaUrl(picture.target, 'display') : mediaUrl(picture.target)}
              target="_blank"
              rel="noreferrer"
              className="approval-thumb"
            >
              <Thumb picture={picture} index={i} />
            </a>
            <div>
              <strong>{picture.desc || '(no caption)'}</strong>
              <p className="small">
                {takenOn(picture)} · {picture.guest !== null ? `from ${picture.guest} (guest link)` : `from ${picture.uploader ?? 'a deleted account'}`} ·{' '}
                {new Date(picture.uploadedAt).toLocaleString()}
              </p>
              <div className="link-row">
                <button type="button" className="button primary" disabled={approve.isPending} onClick={() => approve.mutate({ id: picture.id })}>
                  Approve
                </button>
                <button type="button" className="button danger" disabled={reject.isPending} onClick={() => reject.mutate({ id: picture.id })}>
                  Reject
                </button>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </main>
  );
}
