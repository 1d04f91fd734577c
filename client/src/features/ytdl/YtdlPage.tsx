import { useEffect, useRef, useState, type FormEvent } from 'react';
import { cutVideoLink, embedLink, FORMAT_LABELS, YTDL_FORMATS, ytdlMessages, type YtdlCodecs, type YtdlFormat, type YtdlProgress } from '@site/contracts/ytdl';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc, useMutationQuery } from '../../lib/trpc.ts';
import { describeDelivered, describeProgress } from './format.ts';
import './ytdl.css';
import { useSettled } from '../../lib/use-settled.ts';

const POLL_MS = 500;
const TYPING_PAUSE_MS = 400;

const looksLikeLink = (link: string) => /^https?:\/\/\S+$/i.test(link);

/**
 * Hands the file to the browser's own downloads: it streams to disk, never into this page. While the
 * server still downloads a file it can send as it goes (`streaming`), the browser starts at once and
 * receives it as it arrives; a download that fails after that is cut off, so the browser shows it as
 * failed rather than saving a shortened file.
 */
function saveFile(job: string, fileName: string) {
  const anchor = document.createElement('a');
  anchor.href = `/api/ytdl/file/${encodeURIComponent(job)}`;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/** The saved file's name and what it holds, once the server has probed it. */
type Saved = { name: string; format: YtdlFormat; codecs: YtdlCodecs | null };

function SavedNote({ saved }: { saved: Saved }) {
  const delivered = saved.codecs ? describeDelivered(saved.codecs, saved.format) : null;
  return (
    <>
      <p className="small" role="status">
        Saved as <strong>{saved.name}</strong> in your downloads.
      </p>
      {delivered && (
        <p className={`small ytdl-codecs${delivered.playsEverywhere ? '' : ' ytdl-codecs-warn'}`} role="status" data-testid="codecs">
          {delivered.text}
        </p>
      )}
    </>
  );
}

function Preview({ link }: { link: string }) {
  const embed = embedLink(link);
  if (!embed) {
    return (
      <div className="ytdl-preview ytdl-preview-empty">
        <p>{link ? 'No preview for this link' : 'Paste a YouTube link to see it here'}</p>
      </div>
    );
  }
  return (
    <div className="ytdl-preview">
      <iframe
        src={embed}
        title="Video preview"
        allow="encrypted-media; picture-in-picture; fullscreen"
        referrerPolicy="strict-origin-when-cross-origin"
        sandbox="allow-scripts allow-same-origin allow-presentation"
        loading="lazy"
      />
    </div>
  );
}

export default function YtdlPage() {
  const [raw, setRaw] = useState('');
  const [format, setFormat] = useState<YtdlFormat>('mp4');
  const [job, setJob] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<Saved | null>(null);
  const starting = useRef(false);
  /** The job whose file was handed to the browser (once per job). */
  const handed = useRef<string | null>(null);

  const link = cutVideoLink(raw);
  const settledLink = useSettled(link, TYPING_PAUSE_MS);
  const version = trpc.ytdl.version.useQuery(undefined, { staleTime: Infinity });
  const utils = trpc.useUtils();
  // ytdl.info is a mutation on the server (it runs yt-dlp); the page keeps its answer per link.
  const info = useMutationQuery([['ytdl', 'info'], { url: settledLink }], () => utils.client.ytdl.info.mutate({ url: settledLink }), {
    enabled: looksLikeLink(settledLink),
    staleTime: Infinity,
  });
  const start = trpc.ytdl.start.useMutation();
  const cancel = trpc.ytdl.cancel.useMutation();
  const progress = trpc.ytdl.progress.useQuery({ job: job ?? '' }, { enabled: job !== null, refetchInterval: POLL_MS, gcTime: 0 });

  useEffect(() => {
    document.title = 'YT-DL';
  }, []);

  const current: YtdlProgress | undefined = job !== null && progress.data?.job === job ? progress.data : undefined;
  useEffect(() => {
    if (!current) return;
    const name = current.fileName ?? `video.${current.format}`;
    // Sent while it downloads, or once it is ready; the progress goes on showing until it is done.
    if (handed.current !== current.job && (current.streaming || current.state === 'ready')) {
      handed.current = current.job;
      saveFile(current.job, name);
    }
    if (current.state === 'ready' || (current.state === 'sent' && handed.current === current.job)) {
      setSaved({ name, format: current.format, codecs: current.codecs });
      setJob(null);
    } else if (current.state === 'failed' || current.state === 'cancelled' || current.state === 'sent') {
      if (current.error) setFailure(current.error);
      setJob(null);
    }
  }, [current]);
  useEffect(() => {
    if (job !== null && progress.error) {
      setFailure(progress.error.message);
      setJob(null);
    }
  }, [job, progress.error]);

  const busy = job !== null || start.isPending;

  const download = async (event?: FormEvent) => {
    event?.preventDefault();
    // A second click while a download runs does nothing.
    if (busy || starting.current) return;
    setFailure(null);
    setSaved(null);
    if (link === '') return setFailure('Paste a video link first');
    starting.current = true;
    try {
      const started = await start.mutateAsync({ url: link, format });
      setJob(started.job);
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      starting.current = false;
    }
  };

  const stop = () => {
    if (job === null) return;
    const id = job;
    setJob(null);
    cancel.mutate({ job: id });
  };

  const infoError = info.error && info.error.data?.code !== 'CONFLICT' ? info.error.message : null;
  // The same refusal (no internet, an unknown host) from the title lookup and from Download is said once, under Download.
  const shownInfoError = infoError !== null && infoError !== failure ? infoError : null;
  const title = looksLikeLink(link) && settledLink === link ? info.data?.title : undefined;

  return (
    <main className="page ytdl-page">
      <header className="page-hero">
        <h1>YT-DL</h1>
        <p className="lead">Paste a video link and save the video or its audio straight to this device.</p>
      </header>
      <section className="card ytdl-card" aria-labelledby="ytdl-title">
        <h2 id="ytdl-title" className="visually-hidden">
          Download a video
        </h2>
        <form className="ytdl-form" onSubmit={(event) => void download(event)} noValidate>
          <TextInput
            label="URL"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://www.youtube.com/watch?v=..."
            value={raw}
            onValueChange={(value) => {
              // The last download's outcome was about the old link.
              setRaw(value);
              setSaved(null);
              setFailure(null);
            }}
            maxLength={4096}
          />
          <p className="ytdl-video-title" aria-live="polite" data-testid="video-title">
            {title ? (
              <>
                <span className="visually-hidden">Title: </span>
                {title}
              </>
            ) : info.isFetching && looksLikeLink(settledLink) ? (
              <span className="muted">Reading the title...</span>
            ) : null}
          </p>
          <ErrorBubble message={shownInfoError} testId="info-error" />
          <Preview link={link} />
          <div className="ytdl-actions">
            <div className="field ytdl-format">
              <label htmlFor="ytdl-format">Format</label>
              <select id="ytdl-format" value={format} disabled={busy} onChange={(event) => setFormat(event.target.value as YtdlFormat)}>
                {YTDL_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {FORMAT_LABELS[f]}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button primary ytdl-download" aria-disabled={busy}>
              {busy ? 'Downloading...' : 'Download'}
            </button>
            {job !== null && (
              <button type="button" className="button" onClick={stop}>
                Cancel
              </button>
            )}
          </div>
        </form>
        {job !== null && (
          <div className="ytdl-progress" data-testid="progress">
            <progress max={100} value={current?.percent ?? undefined} aria-label="Download progress" />
            <p className="small" role="status">
              {!current || current.state === 'starting'
                ? 'Starting...'
                : current.state === 'processing'
                  ? 'Preparing the file...'
                  : describeProgress(current)}
            </p>
          </div>
        )}
        <ErrorBubble message={failure} testId="download-error" />
        {saved && <SavedNote saved={saved} />}
        <p className="small muted ytdl-version">
          {version.data === undefined
            ? ''
            : version.data.version
              ? `Downloads with yt-dlp ${version.data.version}.`
              : 'The downloader (yt-dlp) is not installed on the server; ask the site owner to install it.'}
        </p>
        {version.data?.outdated && version.data.version && version.data.ageDays !== null && (
          <p className="small ytdl-outdated" data-testid="ytdlp-outdated">
            {ytdlMessages.outdated(version.data.version, version.data.ageDays)}
          </p>
        )}
      </section>
    </main>
  );
}
