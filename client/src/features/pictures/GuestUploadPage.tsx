import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { albumMessages, GUEST_NAME_MAX, UPLOAD_PAGE, type GuestUploadReply } from '@site/contracts/albums';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { Loaded } from '../../components/Loaded.tsx';
import { trpc } from '../../lib/trpc.ts';
import { NoLongerShared, tokenOf } from './SharedPage.tsx';
import './pictures.css';

type Sent = { name: string; message: string; ok: boolean };

/** One file to the link's upload route (multipart, as the members' form sends it). */
async function send(token: string, guest: string, file: File): Promise<Sent> {
  const form = new FormData();
  form.append('name', guest);
  form.append('file', file);
  try {
    const res = await fetch(`/api/shared/${encodeURIComponent(token)}/upload`, { method: 'POST', body: form });
    const body = (await res.json().catch(() => ({ message: `The upload failed (${res.status})` }))) as Partial<GuestUploadReply> & { message?: string };
    return { name: file.name, message: body.message ?? `The upload failed (${res.status})`, ok: res.ok };
  } catch {
    return { name: file.name, message: 'The upload failed: no connection to the site', ok: false };
  }
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
  useEffect(() => {
    document.title = 'Send pictures';
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
      done.push(await send(token, name, file));
      setResults([...done]);
    }
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
