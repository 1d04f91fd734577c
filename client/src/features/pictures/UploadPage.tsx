import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { viewerOf } from '../../lib/access.ts';
import { trpc } from '../../lib/trpc.ts';
import { IMAGE_TYPES, RESUMABLE_PATH, resumableMessages, VIDEO_TYPES, type UploadReply } from '@site/contracts/pictures';
import { NumberInput } from '../../components/NumberInput.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { captionFromName, DATE_RULES, dateErrors, dateField, dateNote, dateProblem, suggestedDate, type DateParts, type UploadResult } from './upload.ts';
import { SHARED_QUERY, takeSharedFiles } from './shared-files.ts';
import type { Interrupted, ResumableState } from './resumable.ts';
import './pictures.css';

type Item = {
  key: string;
  file: File;
  caption: string;
  date: DateParts;
  dateFrom: 'photo' | 'file' | null;
  progress: number;
  /** 'resuming' after a dropped connection (or a reload) until the file is whole. */
  state: ResumableState | null;
  error: string | null;
};

/** tus-js-client and the page's resumable code: loaded with this page on demand, never with the shell. */
const loadResumable = () => import('./resumable.ts');

/** A resumable upload's answer as the one-request upload's (upload.ts UploadResult). */
function resultOf(sent: Awaited<ReturnType<Awaited<ReturnType<typeof loadResumable>>['sendResumable']>['done']>): UploadResult {
  if (!sent.ok) return { ok: false, message: sent.message };
  const body = (sent.body ?? {}) as Partial<UploadReply>;
  return { ok: true, pending: body.pending === true, message: body.message ?? 'Uploaded', duplicate: body.duplicate === true, link: body.link ?? null };
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/**
 * Uploads this browser started and did not finish (a reload, a closed tab): how much the server holds,
 * and that choosing the same file again goes on from there; Forget removes one here and on the server.
 */
function InterruptedUploads({ endpoint }: { endpoint: string }) {
  const [found, setFound] = useState<(Interrupted & { held: number | null })[]>([]);
  useEffect(() => {
    let live = true;
    void loadResumable().then(async ({ interruptedUploads, heldFraction }) => {
      const all = await interruptedUploads(endpoint);
      const withHeld = await Promise.all(all.map(async (u) => ({ ...u, held: await heldFraction(u) })));
      if (live) setFound(withHeld.filter((u) => u.held !== null));
    }).catch(() => {});
    return () => {
      live = false;
    };
  }, [endpoint]);
  if (found.length === 0) return null;
  return (
    <div className="note interrupted-uploads" data-testid="interrupted-uploads">
      <p>
        <strong>Interrupted uploads:</strong> choose the same file again to resume it from where it stopped.
      </p>
      <ul>
        {found.map((u) => (
          <li key={u.key}>
            {u.name} ({sizeText(u.size)}, {Math.round((u.held ?? 0) * 100)}% sent){' '}
            <button
              type="button"
              className="button small-button"
              onClick={() => void loadResumable().then(({ forgetUpload }) => forgetUpload(u)).then(() => setFound((all) => all.filter((x) => x.key !== u.key)))}
            >
              Forget
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

type Note = { text: string; link: string | null };

/** The chooser's filter: every type the gallery takes (iPhone HEIC included), by name and by kind. */
const ACCEPT = [...IMAGE_TYPES, 'heif', 'tiff', ...VIDEO_TYPES, 'image/*', 'video/*'].map((t) => (t.includes('/') ? t : `.${t}`)).join(',');

let nextKey = 0;

/**
 * Year, month and day: the site's NumberInput (whole numbers; every character kept as typed, a
 * refusal said under the field, a digit keyboard on a phone), and under them what is wrong with the
 * date as a whole (a day without its month, 30 February).
 */
function DateFields({ item, onChange }: { item: Item; onChange: (date: DateParts) => void }) {
  const field = (name: keyof DateParts, className: string) => (
    <NumberInput
      className={`date-part ${className}`}
      rules={DATE_RULES[name]}
      value={item.date[name]}
      onValueChange={(value) => onChange({ ...item.date, [name]: value })}
    />
  );
  const problem = dateProblem(item.date);
  return (
    <fieldset className="date-fields">
      <legend>Date</legend>
      {field('year', 'date-year')}
      {field('month', 'date-month')}
      {field('day', 'date-day')}
      {problem && (
        <p className="field-error date-problem" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}

/**
 * Choose or drop files; each gets a caption (from its name) and a date (from the photo's EXIF, else
 * the file's modified date) to check; Upload sends them one by one with a progress bar each.
 */
export default function UploadPage() {
  const status = trpc.auth.status.useQuery();
  const viewer = viewerOf(status.data);
  const utils = trpc.useUtils();
  const [items, setItems] = useState<Item[]>([]);
  const [uploading, setUploading] = useState(false);
  const [notes, setNotes] = useState<Note[]>([]);
  /** Why Upload sent nothing: a date that cannot be read as typed. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const location = useLocation();

  useEffect(() => {
    document.title = 'Add Pictures';
    // The resumable upload code starts loading with the page, so Upload does not wait for it.
    void loadResumable();
  }, []);

  const patch = (key: string, change: Partial<Item>) => setItems((all) => all.map((it) => (it.key === key ? { ...it, ...change } : it)));

  const add = (files: FileList | File[]) => {
    const added: Item[] = [...files].map((file) => ({
      key: `f${nextKey++}`,
      file,
      caption: captionFromName(file.name),
      date: { year: '', month: '', day: '' },
      dateFrom: null,
      progress: 0,
      state: null,
      error: null,
    }));
    setItems((all) => [...all, ...added]);
    setNotes([]);
    // The suggestion arrives after the EXIF read; a date the member already typed is theirs to keep.
    const untouched = (it: Item) => it.date.year === '' && it.date.month === '' && it.date.day === '';
    for (const item of added) {
      void suggestedDate(item.file).then(({ parts, from }) =>
        setItems((all) => all.map((it) => (it.key === item.key && untouched(it) ? { ...it, date: parts, dateFrom: from } : it))),
      );
    }
  };

  // Files from the phone's share sheet (the service worker kept them: shared-files.ts), ready to send.
  const shared = new URLSearchParams(location.search).get(SHARED_QUERY) === '1';
  const addRef = useRef(add);
  addRef.current = add;
  useEffect(() => {
    if (!shared) return;
    void takeSharedFiles().then((files) => {
      if (files.length > 0) addRef.current(files);
    });
  }, [shared]);

  const upload = async (event?: FormEvent) => {
    event?.preventDefault();
    // Ignored without a file or while an upload is running.
    if (uploading || items.length === 0) return;
    // A date the page cannot read is never sent, nor guessed at: nothing is uploaded until it is put right.
    const unreadable = items.filter((item) => dateErrors(item.date).length > 0);
    if (unreadable.length > 0) {
      const names = unreadable.map((item) => item.file.name).join(', ');
      setRefusal(`Nothing was uploaded: check the date of ${names} (its message is under the date)`);
      return;
    }
    setRefusal(null);
    setUploading(true);
    const done: string[] = [];
    const messages: Note[] = [];
    const { sendResumable } = await loadResumable();
    for (const item of items) {
      patch(item.key, { error: null, progress: 0, state: 'sending' });
      const sending = sendResumable(item.file, {
        endpoint: RESUMABLE_PATH,
        fields: { caption: item.caption, date: dateField(item.date) },
        onProgress: (progress) => patch(item.key, { progress }),
        onState: (state) => patch(item.key, { state }),
      });
      const result = resultOf(await sending.done);
      patch(item.key, { state: null });
      if (result.ok) {
        done.push(item.key);
        // Bytes already stored: nothing new was saved; the note links to the picture that holds them.
        messages.push({ text: `${item.file.name}: ${result.message}`, link: result.duplicate ? result.link : null });
      } else {
        patch(item.key, { error: result.message, progress: 0 });
      }
    }
    setItems((all) => all.filter((it) => !done.includes(it.key)));
    setNotes(messages);
    setUploading(false);
    if (input.current) input.current.value = '';
    void utils.pictures.invalidate();
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length > 0) add(event.dataTransfer.files);
  };

  return (
    <main className="page narrow-page upload-page">
      <section className="card" aria-labelledby="upload-title">
        <h1 id="upload-title">Add Pictures</h1>
        {viewer && viewer.level < 2 && (
          <p className="note" data-testid="approval-note">
            Pictures from Friend accounts wait for an admin&apos;s approval before anyone else sees them.
          </p>
        )}
        {!uploading && <InterruptedUploads endpoint={RESUMABLE_PATH} />}
        <form onSubmit={(event) => void upload(event)}>
          <div
            className={`drop-zone${dragging ? ' dragging' : ''}`}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <label htmlFor="picture-files">Choose pictures or videos, or drop them here</label>
            <input
              ref={input}
              id="picture-files"
              type="file"
              multiple
              accept={ACCEPT}
              onChange={(event) => event.target.files && add(event.target.files)}
            />
          </div>
          {items.length > 0 && (
            <p className="small">Please check each date: the minimum requirement is year. Leave the month or day blank when unknown.</p>
          )}
          <ul className="upload-list" data-testid="upload-list">
            {items.map((item) => (
              <li key={item.key} className="upload-item">
                <div className="upload-name">
                  <strong>{item.file.name}</strong>
                  <button type="button" className="button small-button" disabled={uploading} onClick={() => setItems((all) => all.filter((it) => it !== item))}>
                    Remove
                  </button>
                </div>
                <TextInput label="Caption" value={item.caption} maxLength={500} onValueChange={(caption) => patch(item.key, { caption })} />
                <DateFields
                  item={item}
                  onChange={(date) => {
                    setRefusal(null);
                    patch(item.key, { date });
                  }}
                />
                {item.dateFrom && <p className="small">{dateNote(item.file, item.dateFrom)}</p>}
                <div className="upload-progress">
                  <progress max={1} value={item.progress} aria-label={`Upload progress of ${item.file.name}`} />
                  {item.state && (
                    <span className="small" data-testid="upload-state">
                      {item.state === 'resuming' ? `${resumableMessages.resuming} ` : ''}
                      {Math.floor(item.progress * 100)}%
                    </span>
                  )}
                </div>
                {item.error && (
                  <p className="error-bubble" role="alert">
                    {item.error}
                  </p>
                )}
              </li>
            ))}
          </ul>
          {refusal && (
            <p className="error-bubble" role="alert" data-testid="upload-refusal">
              {refusal}
            </p>
          )}
          <button type="submit" className="button primary" aria-disabled={uploading || items.length === 0}>
            {uploading ? 'Uploading...' : 'Upload'}
          </button>
        </form>
        <div role="status" className="upload-notes">
          {notes.map((note, i) => (
            <p key={i}>
              {note.text}
              {note.link && (
                <>
                  {' '}
                  <Link to={note.link}>See it</Link>
                </>
              )}
            </p>
          ))}
        </div>
        <p>
          <Link to="/personal/pictures/month/0">See the pictures</Link>
        </p>
      </section>
    </main>
  );
}
