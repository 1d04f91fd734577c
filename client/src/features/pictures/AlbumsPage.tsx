import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ALBUM_NAME_MAX, ALBUMS_PATH, albumMessages, albumPath, SHARE_DEFAULT_DAYS, SHARE_MAX_DAYS, type Album, type ShareLink } from '@site/contracts/albums';
import { DEFAULT_GALLERY_PATH } from '@site/contracts/pictures';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadProblem } from '../../components/Loaded.tsx';
import { NumberInput } from '../../components/NumberInput.tsx';
import { parseNumber, type NumberRules } from '../../components/number.ts';
import { TextInput } from '../../components/TextInput.tsx';
import { viewerOf } from '../../lib/access.ts';
import { useLive } from '../../lib/live.ts';
import { trpc } from '../../lib/trpc.ts';
import { PictureTile, PlayMark, Thumb } from './media.tsx';
import { MemberViewer } from './MemberViewer.tsx';
import './pictures.css';

/** `/personal/pictures/albums` (the list) and `/personal/pictures/albums/<id>` (one album). */
export default function AlbumsPage() {
  const { pathname } = useLocation();
  useLive(['albums']);
  const rest = pathname.slice(ALBUMS_PATH.length).replace(/^\/+|\/+$/g, '');
  if (rest === '') return <AlbumList />;
  const id = /^\d{1,10}$/.test(rest) ? Number(rest) : 0;
  return <AlbumView key={id} id={id} />;
}

function AlbumList() {
  const navigate = useNavigate();
  const albums = trpc.albums.list.useQuery();
  const [name, setName] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const create = trpc.albums.create.useMutation({ onSuccess: ({ id }) => navigate(albumPath(id)) });
  useEffect(() => {
    document.title = 'Albums';
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, private: isPrivate });
  };
  return (
    <main className="page pictures-page albums-page">
      <header className="gallery-head">
        <h1>Albums</h1>
        <nav className="gallery-types" aria-label="Pictures">
          <Link to={DEFAULT_GALLERY_PATH}>All pictures</Link>
        </nav>
      </header>
      <section className="card" aria-labelledby="new-album-title">
        <h2 id="new-album-title">New album</h2>
        <form onSubmit={submit} className="new-album">
          <TextInput label="Album name" value={name} onValueChange={setName} maxLength={ALBUM_NAME_MAX} required />
          <fieldset className="album-privacy">
            <legend>Who sees it</legend>
            <label>
              <input type="radio" name="privacy" checked={!isPrivate} onChange={() => setPrivate(false)} /> Family (every member)
            </label>
            <label>
              <input type="radio" name="privacy" checked={isPrivate} onChange={() => setPrivate(true)} /> Private (only me)
            </label>
          </fieldset>
          <ErrorBubble message={create.error ? create.error.message : null} />
          <button type="submit" className="button primary" disabled={create.isPending}>
            New album
          </button>
        </form>
      </section>
      <LoadProblem query={albums} what="the albums" />
      {albums.data && albums.data.length === 0 && <p className="card">No albums yet.</p>}
      <ul className="picture-grid album-grid" data-testid="album-list">
        {(albums.data ?? []).map((album, index) => (
          <li key={album.id}>
            <Link to={albumPath(album.id)} className="album-tile">
              <span className="picture-tile">{album.cover ? <Thumb picture={album.cover} index={index} /> : <span className="thumb-placeholder">Empty</span>}</span>
              <strong>{album.name}</strong>
              <span className="small">
                {album.pictureCount} {album.pictureCount === 1 ? 'picture' : 'pictures'} · {album.private ? 'Private' : 'Family'}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  );
}

function AlbumView({ id }: { id: number }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const status = trpc.auth.status.useQuery();
  const viewer = viewerOf(status.data);
  const album = trpc.albums.get.useQuery(
    { id },
    { enabled: id > 0, refetchInterval: (query) => (query.state.data?.pictures.some((p) => p.thumb === 'pending') ? 2000 : false) },
  );
  const [open, setOpen] = useState<number | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [panel, setPanel] = useState<'rename' | 'share' | null>(null);
  const refresh = () => utils.albums.invalidate();
  const remove = trpc.albums.removePictures.useMutation({
    onSuccess: () => {
      setSelected(new Set());
      setSelecting(false);
      void refresh();
    },
  });
  const del = trpc.albums.delete.useMutation({ onSuccess: () => navigate(ALBUMS_PATH) });
  const close = useCallback(() => setOpen(null), []);
  useEffect(() => {
    document.title = album.data ? `Album - ${album.data.name}` : 'Album';
  }, [album.data]);

  if (id === 0) return <LoadProblemText />;
  const data = album.data;
  const pictures = data?.pictures ?? [];
  const toggle = (pictureId: number) =>
    setSelected((now) => {
      const next = new Set(now);
      if (next.has(pictureId)) next.delete(pictureId);
      else next.add(pictureId);
      return next;
    });
  const error = remove.error ?? del.error;
  return (
    <main className="page pictures-page album-page">
      <header className="gallery-head">
        <h1 data-testid="album-name">{data?.name ?? 'Album'}</h1>
        <nav className="gallery-types" aria-label="Pictures">
          <Link to={ALBUMS_PATH}>All albums</Link>
          <Link to={DEFAULT_GALLERY_PATH}>All pictures</Link>
        </nav>
      </header>
      <LoadProblem query={album} what="the album" />
      {data && (
        <p className="small">
          {data.private ? 'Private album' : 'Family album'}
          {data.owner ? ` · made by ${data.owner}` : ''} · {data.pictureCount} {data.pictureCount === 1 ? 'picture' : 'pictures'}
        </p>
      )}
      {data?.mayChange && (
        <div className="link-row album-actions">
          <button type="button" className="button primary" onClick={() => setPanel(panel === 'share' ? null : 'share')} aria-expanded={panel === 'share'}>
            Share
          </button>
          <button type="button" className="button" onClick={() => setPanel(panel === 'rename' ? null : 'rename')} aria-expanded={panel === 'rename'}>
            Rename
          </button>
          <button type="button" className="button" onClick={() => (setSelecting(!selecting), setSelected(new Set()))} aria-pressed={selecting}>
            {selecting ? 'Cancel selection' : 'Select'}
          </button>
          <button
            type="button"
            className="button danger"
            onClick={() => {
              if (window.confirm(`Delete the album "${data.name}"? Its pictures stay in the gallery.`)) del.mutate({ id });
            }}
          >
            Delete album
          </button>
        </div>
      )}
      <ErrorBubble message={error ? error.message : null} />
      {data && panel === 'rename' && <RenameForm album={data} onDone={() => setPanel(null)} />}
      {data && panel === 'share' && <ShareDialog album={data} level={viewer?.level ?? 0} onClose={() => setPanel(null)} />}
      {selecting && (
        <div className="link-row selection-bar" role="region" aria-label="Selection">
          <span>{selected.size} selected</span>
          <button type="button" className="button danger" disabled={selected.size === 0 || remove.isPending} onClick={() => remove.mutate({ albumId: id, pictureIds: [...selected] })}>
            Remove from album
          </button>
        </div>
      )}
      {data && pictures.length === 0 && (
        <p className="card">
          No pictures in this album yet. Open a picture in the <Link to={DEFAULT_GALLERY_PATH}>gallery</Link> and choose “Add to album”.
        </p>
      )}
      <ul className="picture-grid" data-testid="picture-grid">
        {pictures.map((picture, i) => (
          <li key={picture.id}>
            {selecting ? (
              <label className={`picture-tile selectable${selected.has(picture.id) ? ' selected' : ''}`}>
                <Thumb picture={picture} index={i} />
                <PlayMark picture={picture} />
                <input type="checkbox" checked={selected.has(picture.id)} onChange={() => toggle(picture.id)} aria-label={`Select ${picture.desc || 'picture'}`} />
              </label>
            ) : (
              <PictureTile picture={picture} index={i} onOpen={() => setOpen(i)} />
            )}
          </li>
        ))}
      </ul>
      {open !== null && (
        <MemberViewer
          pictures={pictures}
          index={open}
          admin={false}
          onMove={setOpen}
          onClose={close}
          tools={(picture) =>
            data?.mayChange && (
                <button
                  type="button"
                  className="button danger"
                  onClick={() => {
                    remove.mutate({ albumId: id, pictureIds: [picture.id] });
                    close();
                  }}
                >
                  Remove from this album
                </button>
              )
          }
        />
      )}
    </main>
  );
}

function LoadProblemText() {
  return (
    <main className="page">
      <p className="card error-text">That album does not exist</p>
    </main>
  );
}

function RenameForm({ album, onDone }: { album: Album; onDone: () => void }) {
  const utils = trpc.useUtils();
  const [name, setName] = useState(album.name);
  const rename = trpc.albums.rename.useMutation({
    onSuccess: () => {
      void utils.albums.invalidate();
      onDone();
    },
  });
  return (
    <form
      className="card"
      aria-label="Rename album"
      onSubmit={(event) => {
        event.preventDefault();
        rename.mutate({ id: album.id, name });
      }}
    >
      <TextInput label="New name" value={name} onValueChange={setName} maxLength={ALBUM_NAME_MAX} required />
      <ErrorBubble message={rename.error ? rename.error.message : null} />
      <button type="submit" className="button primary" disabled={rename.isPending}>
        Save name
      </button>
    </form>
  );
}

/** The site's one number field: "2,5" days is refused under the field, never sent as nothing. */
const SHARE_DAYS: NumberRules = { label: 'Expires after (days)', whole: true, min: 1, max: SHARE_MAX_DAYS, message: albumMessages.badDays };

/** "Share": a view link (expiry, optional password), an upload link (level 2+), and the album's links with Revoke. */
function ShareDialog({ album, level, onClose }: { album: Album; level: number; onClose: () => void }) {
  const utils = trpc.useUtils();
  const links = trpc.shares.list.useQuery({ albumId: album.id });
  const [days, setDays] = useState(String(SHARE_DEFAULT_DAYS));
  const [password, setPassword] = useState('');
  const [includeLocation, setIncludeLocation] = useState(false);
  const [made, setMade] = useState<{ kind: string; url: string } | null>(null);
  const refresh = () => utils.shares.invalidate();
  const create = trpc.shares.create.useMutation({
    onSuccess: (r) => {
      setMade({ kind: 'View link', url: r.url });
      setPassword('');
      void refresh();
    },
  });
  const createUpload = trpc.shares.createUpload.useMutation({
    onSuccess: (r) => {
      setMade({ kind: 'Upload link', url: r.url });
      void refresh();
    },
  });
  const revoke = trpc.shares.revoke.useMutation({ onSuccess: refresh });
  const expiry = parseNumber(days, SHARE_DAYS);
  // A refused count is said under the field (and makes no link); a blank one is the default.
  const expiresIn = expiry.ok && expiry.value !== null ? { expiresInDays: expiry.value } : {};
  const error = create.error ?? createUpload.error ?? revoke.error;
  return (
    <section className="card share-dialog" role="dialog" aria-labelledby="share-title">
      <div className="link-row">
        <h2 id="share-title">Share “{album.name}”</h2>
        <button type="button" className="button" onClick={onClose} aria-label="Close sharing">
          ✕
        </button>
      </div>
      <p className="small">Anyone with a view link sees this album’s pictures, captions and dates, and can download them. Nothing else of the site.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!expiry.ok) return;
          create.mutate({ albumId: album.id, ...expiresIn, ...(password ? { password } : {}), ...(includeLocation ? { includeLocation } : {}) });
        }}
      >
        <NumberInput className="share-days" rules={SHARE_DAYS} value={days} onValueChange={setDays} />
        <TextInput label="Password (optional)" value={password} onValueChange={setPassword} maxLength={200} autoComplete="new-password" />
        <label className="share-location">
          <input type="checkbox" checked={includeLocation} onChange={(event) => setIncludeLocation(event.target.checked)} /> Include location
          <span className="small"> (where each picture was taken stays in the originals guests download; otherwise it is removed)</span>
        </label>
        <div className="link-row">
          <button type="submit" className="button primary" disabled={create.isPending}>
            Create view link
          </button>
          {level >= 2 && (
            <button type="button" className="button" disabled={createUpload.isPending || !expiry.ok} onClick={() => createUpload.mutate({ albumId: album.id, ...expiresIn })}>
              Create upload link
            </button>
          )}
        </div>
      </form>
      <ErrorBubble message={error ? error.message : null} />
      {made && (
        <p className="share-made" role="status">
          {made.kind}: <input readOnly value={made.url} aria-label={made.kind} onFocus={(event) => event.target.select()} className="share-url" />{' '}
          <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(made.url).catch(() => {})}>
            Copy link
          </button>
        </p>
      )}
      <h3>Links to this album</h3>
      <LoadProblem query={links} what="the links" />
      {links.data && links.data.length === 0 && <p className="small">No working links.</p>}
      <ul className="share-list" data-testid="share-list">
        {(links.data ?? []).map((link) => (
          <li key={link.id}>
            <span>{describeLink(link)}</span>
            <button type="button" className="button danger" disabled={revoke.isPending} onClick={() => revoke.mutate({ id: link.id })}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function describeLink(link: ShareLink): string {
  const kind =
    link.kind === 'view' ? `View link${link.hasPassword ? ' with password' : ''}${link.includesLocation ? ', location included' : ''}` : 'Upload link';
  const until = link.expiresAt ? `until ${new Date(link.expiresAt).toLocaleDateString()}` : 'no expiry';
  const uses = link.kind === 'view' ? `opened ${link.uses} ${link.uses === 1 ? 'time' : 'times'}` : `${link.uploads} ${link.uploads === 1 ? 'upload' : 'uploads'}`;
  return `${kind} · ${until} · ${uses}`;
}
