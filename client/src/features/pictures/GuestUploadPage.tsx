import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { albumMessages, GUEST_NAME_MAX, UPLOAD_PAGE, type GuestUploadReply } from '@site/contracts/albums';
import { guestResumablePath, resumableMessages } from '@site/contracts/pictures';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { Loaded } from '../../components/Loaded.tsx';
import { trpc } from '../../lib/trpc.ts';
import { NoLongerShared, tokenOf } from './SharedPage.tsx';
import './pictures.css';

type Sent = { name: string; message: string; ok: boolean };

/** The file being sent: its progress, and "Resuming…" after a dropped connection. */
type Sending = { name: string; progress: number; resuming: boolean };

/**
 * One file to the link's resumable uploads (tus: a dropped connection goes on from what the site
 * holds; resumable.ts, loaded on demand), with the guest's name as the one-request form sends it.
 */
async function send(token: string, guest: string, file: File, onSending: (sending: Sending) => void): Promise<Sent> {
  const { sendResumable } = await import('./resumable.ts');
  let now: Sending = { name: file.name, progress: 0, resuming: false };
  onSending(now);
  const sent = await sendResumable(file, {
    endpoint: guestResumablePath(token),
    fields: { name: guest },
    onProgress: (progress) => onSending((now = { ...now, progress })),
    onState: (state) => onSending((now = { ...now, resuming: state === 'resuming' })),
  }).done;
  if (!sent.ok) return { name: file.name, message: sent.message, ok: false };
  const body = (sent.body ?? {}) as Partial<GuestUploadReply>;
  return { name: file.name, message: body.message ?? albumMessages.guestUploaded, ok: true };
}

/**
 * An upload link's page for a guest: "Your name", the files (a phone offers its camera roll and
 * camera), "Upload". What is sent waits for the owner's approval, marked with the guest's name.
 */
export default function GuestUploadPage() {
  const token = tokenOf(useLocation().pathname, UPLOAD_PAGE);
  const info = trpc.shares.uploadInfo.useQuery({ token }, { retry: false });
  const [name, setName] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<Sent[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState<Sending | null>(null);
  useEffect(() => {
    document.title = 'Send pictures';
    void import('./resumable.ts');
  }, []);
  if (info.error?.message === albumMessages.gone) return <NoLongerShared />;
  // Failed, offline or on its way: what went wrong with Retry, never a blank page (components/Loaded.tsx).
  if (!info.data)
    return (
      <main className="page guest-page">
        <Loaded query={info} what="this upload link" loading="Opening the link...">
          {() => null}
        </Loaded>
      </main>
    );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (name.trim() === '') return setProblem('Your name may not be empty');
    if (files.length === 0) return setProblem('Choose a file to upload');
    setProblem(null);
    setBusy(true);
    const done: Sent[] = [];
    for (const file of files) {
      done.push(await send(token, name, file, setSending));
      setResults([...done]);
    }
    setSending(null);
    setFiles([]);
    setBusy(false);
  };
  const { albumName, sharer } = info.data;
  return (
    <main className="page guest-page upload-page">
      <h1>Send pictures{albumName ? ` to “${albumName}”` : ''}</h1>
      <p className="small">
        {sharer ? `${sharer} asked for your pictures. ` : ''}They are shown once the site’s owner has looked at them.
      </p>
      <form className="card" onSubmit={(event) => void submit(event)}>
        <label className="guest-field">
          Your name
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={GUEST_NAME_MAX} autoComplete="name" required />
        </label>
        <label className="guest-field">
          Pictures or videos
          <input
            type="file"
            multiple
            accept="image/*,video/*,.heic,.heif,.dng,.cr2,.cr3,.nef,.arw"
            onChange={(event) => setFiles([...(event.target.files ?? [])])}
            key={results.length}
          />
        </label>
        {sending && (
          <p className="upload-progress" data-testid="guest-sending">
            <progress max={1} value={sending.progress} aria-label={`Upload progress of ${sending.name}`} />
            <span className="small">
              {sending.resuming ? `${resumableMessages.resuming} ` : ''}
              {Math.floor(sending.progress * 100)}%
            </span>
          </p>
        )}
        <ErrorBubble message={problem} />
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Uploading...' : 'Upload'}
        </button>
      </form>
      {results.length > 0 && (
        <ul className="card guest-results" role="status">
          {results.map((r, i) => (
            <li key={i} className={r.ok ? undefined : 'error-text'}>
              {r.name}: {r.message}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
