import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { albumMessages, SHARED_PAGE, sharedMediaUrl, type OpenShareReply } from '@site/contracts/albums';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { LoadFailed, LoadProblem } from '../../components/Loaded.tsx';
import { trpc } from '../../lib/trpc.ts';
import { PlayMark, Thumb, type UrlOf } from './media.tsx';
import { Viewer } from './Viewer.tsx';
import { SocialPanel } from './ViewerSocial.tsx';
import './pictures.css';

/** The token of a guest page's address (`/shared/<token>`), or '' when there is none. */
export function tokenOf(pathname: string, page: string): string {
  const rest = pathname.slice(page.length).replace(/^\/+|\/+$/g, '');
  return rest.includes('/') ? '' : rest;
}

const passKey = (token: string) => `share-pass:${token}`;

export function NoLongerShared() {
  return (
    <main className="page guest-page">
      <h1>{albumMessages.gone}</h1>
    </main>
  );
}

/**
 * A view link's page for a guest with no account: the album's pictures, captions and dates, the
 * viewer and each original to download. The shell shows it alone (no navbar), and it calls only the
 * link's own procedures and file route.
 */
export default function SharedPage() {
  const token = tokenOf(useLocation().pathname, SHARED_PAGE);
  const [pass, setPass] = useState<string | null>(() => sessionStorage.getItem(passKey(token)));
  const [reply, setReply] = useState<OpenShareReply | null>(null);
  const open = trpc.shares.open.useMutation({ onSuccess: setReply });
  const { mutate } = open;
  const load = useCallback(() => mutate({ token, ...(pass ? { pass } : {}) }), [token, pass, mutate]);
  // While the album is open, a load that fails (a picture, the hearts and comments) asks whether the
  // link is still shared: revoked or expired, the page says so instead of a broken image.
  const [gone, setGone] = useState(false);
  const recheck = trpc.shares.open.useMutation({ onError: (error) => setGone(error.message === albumMessages.gone) });
  const { mutate: ask } = recheck;
  const onFailedLoad = useCallback(() => ask({ token, ...(pass ? { pass } : {}) }), [token, pass, ask]);
  useEffect(() => {
    document.title = 'Shared album';
    load();
  }, [load]);
  if (gone || open.error?.message === albumMessages.gone) return <NoLongerShared />;
  // A failure, or the network gone (the call waits paused): what went wrong, with Retry.
  if (open.error || open.isPaused)
    return (
      <main className="page guest-page">
        <LoadFailed what="this shared album" error={open.error} onRetry={load} />
      </main>
    );
  if (!reply) return <main className="page guest-page" aria-busy="true" />;
  if (reply.state === 'password')
    return (
      <PasswordForm
        token={token}
        onPass={(p) => {
          sessionStorage.setItem(passKey(token), p);
          setPass(p);
        }}
      />
    );
  return <SharedAlbumView token={token} pass={pass} album={reply.album} onFailedLoad={onFailedLoad} />;
}

function PasswordForm({ token, onPass }: { token: string; onPass: (pass: string) => void }) {
  const [password, setPassword] = useState('');
  const unlock = trpc.shares.unlock.useMutation({ onSuccess: (r) => onPass(r.pass ?? '') });
  return (
    <main className="page guest-page">
      <form
        className="card"
        onSubmit={(event) => {
          event.preventDefault();
          unlock.mutate({ token, password });
        }}
      >
        <h1>{albumMessages.passwordNeeded}</h1>
        <TextInput label="Password" type="password" value={password} onValueChange={setPassword} autoComplete="current-password" required />
        <ErrorBubble message={unlock.error ? unlock.error.message : null} />
        <button type="submit" className="button primary" disabled={unlock.isPending}>
          Open the album
        </button>
      </form>
    </main>
  );
}

/** Where it was taken, only when the link includes location (the server leaves it out otherwise): the same call as GuestSocial's. */
function GuestPlace({ token, pass, pictureId }: { token: string; pass: string | null; pictureId: number }) {
  const place = trpc.shares.social.useQuery({ token, pictureId, ...(pass ? { pass } : {}) }).data?.place;
  return place ? <span className="viewer-place"> · {place}</span> : null;
}

/** The picture's hearts and comments as a guest sees them: read-only, no member named but the sharer. */
function GuestSocial({ token, pass, pictureId, onFailedLoad }: { token: string; pass: string | null; pictureId: number; onFailedLoad: () => void }) {
  const query = trpc.shares.social.useQuery({ token, pictureId, ...(pass ? { pass } : {}) });
  const gone = query.error?.message === albumMessages.gone;
  useEffect(() => {
    if (gone) onFailedLoad();
  }, [gone, onFailedLoad]);
  return (
    <>
      <LoadProblem query={query} what="the hearts and comments" />
      {query.data && <SocialPanel social={query.data} />}
    </>
  );
}

function SharedAlbumView({
  token,
  pass,
  album,
  onFailedLoad,
}: {
  token: string;
  pass: string | null;
  album: Extract<OpenShareReply, { state: 'open' }>['album'];
  onFailedLoad: () => void;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const close = useCallback(() => setOpen(null), []);
  const urlOf: UrlOf = useCallback((target, variant) => sharedMediaUrl(token, target, variant, pass), [token, pass]);
  useEffect(() => {
    document.title = album.name;
  }, [album.name]);
  return (
    // An image or video that fails to load (React passes their `error` up the tree).
    <main className="page pictures-page guest-page" onErrorCapture={onFailedLoad}>
      <h1 data-testid="album-name">{album.name}</h1>
      {album.sharer && <p className="small">Shared by {album.sharer}</p>}
      {album.pictures.length === 0 && <p className="card">No pictures in this album yet.</p>}
      <ul className="picture-grid" data-testid="picture-grid">
        {album.pictures.map((picture, i) => (
          <li key={picture.id}>
            <button type="button" className="picture-tile" onClick={() => setOpen(i)} aria-label={`Open ${picture.desc || 'picture'}`}>
              <Thumb picture={picture} index={i} urlOf={urlOf} />
              <PlayMark picture={picture} />
            </button>
          </li>
        ))}
      </ul>
      {open !== null && (
        <Viewer
          pictures={album.pictures}
          index={open}
          admin={false}
          onMove={setOpen}
          onClose={close}
          urlOf={urlOf}
          social={(picture) => <GuestSocial key={picture.id} token={token} pass={pass} pictureId={picture.id} onFailedLoad={onFailedLoad} />}
          place={(picture) => <GuestPlace key={picture.id} token={token} pass={pass} pictureId={picture.id} />}
        />
      )}
    </main>
  );
}
