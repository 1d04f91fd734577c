import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { PageType } from '@site/contracts/pictures';
import { LoadProblem } from '../../components/Loaded.tsx';
import { viewerOf } from '../../lib/access.ts';
import { trpc } from '../../lib/trpc.ts';
import { DEFAULT_GALLERY_PATH, galleryPath, parseGalleryPath } from './gallery-path.ts';
import { PictureTile } from './media.tsx';
import { SearchBox, SearchResults } from './search.tsx';
import { MemberViewer } from './MemberViewer.tsx';
import './pictures.css';

function PageBar({ type, index, pageCount }: { type: PageType; index: number; pageCount: number }) {
  const last = Math.max(pageCount - 1, 0);
  const arrow = (to: number, symbol: string, label: string, enabled: boolean) =>
    enabled ? (
      <Link className="page-arrow" to={galleryPath(type, to)} aria-label={label}>
        {symbol}
      </Link>
    ) : (
      <span className="page-arrow disabled" aria-label={label} aria-disabled="true" role="link">
        {symbol}
      </span>
    );
  return (
    <nav className="gallery-bar" aria-label="Gallery pages">
      {arrow(0, '«', 'First page', index > 0)}
      {arrow(Math.min(index - 1, last), '‹', 'Previous page', index > 0)}
      <span className="page-counter" data-testid="page-counter">
        {/* Past the last page the counter says so, as the page does. */}
        {index <= last ? index + 1 : '–'} / {Math.max(pageCount, 1)}
      </span>
      {arrow(index + 1, '›', 'Next page', index < last)}
      {arrow(last, '»', 'Last page', index < last)}
    </nav>
  );
}

const TYPES: { type: PageType; label: string }[] = [
  { type: 'month', label: 'By month' },
  { type: 'year', label: 'By year' },
  { type: 24, label: '24 per page' },
];

function Gallery({ type, index }: { type: PageType; index: number }) {
  const navigate = useNavigate();
  const status = trpc.auth.status.useQuery();
  const viewer = viewerOf(status.data);
  const [open, setOpen] = useState<number | null>(null);
  const page = trpc.pictures.page.useQuery(
    { type, index },
    {
      placeholderData: (previous) => previous,
      // Thumbnails are made in the background: look again while some are still on their way.
      refetchInterval: (query) => (query.state.data?.pictures.some((p) => p.thumb === 'pending') ? 2000 : false),
    },
  );
  const data = page.data;
  const pageCount = data?.pageCount ?? 0;

  useEffect(() => setOpen(null), [type, index]);
  // A link to one picture (`?picture=<id>`, as the upload page gives for a duplicate) opens it.
  const [searchParams, setSearchParams] = useSearchParams();
  const wanted = Number(searchParams.get('picture'));
  useEffect(() => {
    if (!wanted || !data) return;
    const at = data.pictures.findIndex((p) => p.id === wanted);
    if (at >= 0) setOpen(at);
    setSearchParams({}, { replace: true });
  }, [wanted, data, setSearchParams]);
  useEffect(() => {
    document.title = data ? `Pictures - ${data.label}` : 'Pictures';
  }, [data]);

  // The bar's arrows from the keyboard: left and right turn the page while no picture is open.
  useEffect(() => {
    if (open !== null) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable)) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'ArrowLeft' && index > 0) navigate(galleryPath(type, index - 1));
      else if (event.key === 'ArrowRight' && index < pageCount - 1) navigate(galleryPath(type, index + 1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, index, pageCount, type, navigate]);

  const close = useCallback(() => setOpen(null), []);
  const admin = viewer !== null && viewer.level >= 3;
  // A search (`?q=`) shows its results in place of the page; clearing it shows the page again.
  const searched = searchParams.get('q')?.trim() ?? '';
  const onSearch = useCallback((q: string) => setSearchParams(q ? { q } : {}), [setSearchParams]);
  // Hearts and comments: on approved pictures; on a pending one only admins see and add them.
  const pictures = data?.pictures ?? [];

  return (
    <main className="page pictures-page">
      <header className="gallery-head">
        <h1 data-testid="gallery-label">{searched ? 'Search' : (data?.label ?? 'Pictures')}</h1>
        <nav className="gallery-types" aria-label="Group pictures">
          {TYPES.map((t) => (
            <Link key={String(t.type)} to={galleryPath(t.type, 0)} aria-current={t.type === type ? 'page' : undefined}>
              {t.label}
            </Link>
          ))}
          <Link to="/personal/pictures/albums">Albums</Link>
          <Link to="/personal/pictures/people">People</Link>
          <Link to="/personal/pictures/map">Map</Link>
          <Link to="/personal/upload-pictures">{viewer && viewer.level < 2 ? 'Upload (needs approval)' : 'Upload'}</Link>
        </nav>
        <SearchBox initial={searched} onSearch={onSearch} />
      </header>
      {searched ? (
        <SearchResults q={searched} admin={admin} />
      ) : (
        <>
          <LoadProblem query={page} what="the pictures" />
          {data && pictures.length === 0 && <p className="card">{data.total === 0 ? 'No pictures yet.' : 'There is no such page.'}</p>}
          <ul className="picture-grid" data-testid="picture-grid">
            {pictures.map((picture, i) => (
              <li key={picture.id}>
                <PictureTile picture={picture} index={i} onOpen={() => setOpen(open === i ? null : i)} />
              </li>
            ))}
          </ul>
          <PageBar type={type} index={index} pageCount={pageCount} />
          {open !== null && (
            <MemberViewer pictures={pictures} index={open} admin={admin} onMove={setOpen} onClose={close} />
          )}
        </>
      )}
    </main>
  );
}

/** The gallery the bare /personal/pictures (and any address it cannot read) shows. */
const DEFAULT_GALLERY = parseGalleryPath(DEFAULT_GALLERY_PATH) as { type: PageType; index: number };

export default function PicturesPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const parsed = parseGalleryPath(pathname);
  // Another address is replaced by the default gallery's, which is shown at once meanwhile (the same
  // page as after the redirect: its pictures are asked for in this render, not one navigation later).
  const unreadable = parsed === null;
  useEffect(() => {
    if (unreadable) void navigate(DEFAULT_GALLERY_PATH, { replace: true });
  }, [unreadable, navigate]);
  const shown = parsed ?? DEFAULT_GALLERY;
  return <Gallery type={shown.type} index={shown.index} />;
}
