import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PEOPLE_PATH, PERSON_NAME_MAX, personPath, type PersonCard, type PersonDetail } from '@site/contracts/people';
import { DEFAULT_GALLERY_PATH, mediaUrl } from '@site/contracts/pictures';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadProblem } from '../../components/Loaded.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { FaceCrop, ThisIs } from './InPicture.tsx';
import { PictureTile } from './media.tsx';
import { MemberViewer } from './MemberViewer.tsx';
import './pictures.css';
import './people.css';

const thumbOf = (stem: string) => mediaUrl(`${stem}.jpg`, 'thumb');
const nameOf = (person: { name: string | null }) => person.name ?? 'Someone unnamed';
const photosText = (n: number) => `${n} ${n === 1 ? 'photo' : 'photos'}`;

/** `/personal/pictures/people` (everyone found in the pictures) and `/personal/pictures/people/<id>` (one person). */
export default function PeoplePage() {
  const { pathname } = useLocation();
  const rest = pathname.slice(PEOPLE_PATH.length).replace(/^\/+|\/+$/g, '');
  if (rest === '') return <PeopleList />;
  const id = /^\d{1,10}$/.test(rest) ? Number(rest) : 0;
  return <PersonView key={id} id={id} />;
}

function Head({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <header className="gallery-head">
      <h1>{title}</h1>
      <nav className="gallery-types" aria-label="Pictures">
        <Link to={DEFAULT_GALLERY_PATH}>All pictures</Link>
        <Link to="/personal/pictures/albums">Albums</Link>
        {children}
      </nav>
    </header>
  );
}

/** How many "Same person?" cards show at once. */
const SUGGESTIONS_SHOWN = 3;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** "12 May 2019", "May 2019", "2019": a capture date as far as it is known. */
const dateText = (d: { year: number; month: number; day: number }) =>
  [d.month > 0 && d.day > 0 ? String(d.day) : '', d.month > 0 ? MONTHS[d.month - 1] : '', String(d.year)].filter(Boolean).join(' ');
/** The tile's checkbox says which person it chooses: an unnamed one by their photos and first date. */
const chooseLabel = (person: PersonCard) =>
  person.name !== null
    ? `Choose ${person.name}, in ${photosText(person.pictureCount)}`
    : `Choose the person in ${photosText(person.pictureCount)}${person.first ? `, first on ${dateText(person.first)}` : ''}`;

function PeopleList() {
  const utils = trpc.useUtils();
  const [showHidden, setShowHidden] = useState(false);
  const people = trpc.people.list.useQuery(showHidden ? { includeHidden: true } : undefined);
  const status = trpc.people.status.useQuery(undefined, { refetchInterval: (q) => (q.state.data && q.state.data.indexed < q.state.data.total ? 5000 : false) });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const merge = trpc.people.merge.useMutation({
    onSuccess: () => {
      setSelected(new Set());
      void utils.people.invalidate();
    },
  });
  useEffect(() => {
    document.title = 'People';
  }, []);
  const toggle = (id: number) =>
    setSelected((now) => {
      const next = new Set(now);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const list = people.data ?? [];
  const s = status.data;
  return (
    <main className="page pictures-page people-page">
      <Head title="People" />
      {s && s.indexed < s.total && (
        <p className="small people-progress" data-testid="people-progress">
          {`Looking for people: ${s.indexed.toLocaleString('en')} of ${s.total.toLocaleString('en')} pictures read`}
        </p>
      )}
      <SamePerson people={list} />
      <div className="people-actions">
        <label>
          <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} /> Show hidden people
        </label>
      </div>
      <LoadProblem query={people} what="the people" />
      {people.data && list.length === 0 && <p className="card">Nobody found yet. Faces appear here as the pictures are read.</p>}
      <ul className="people-grid" data-testid="people-list">
        {list.map((person) => (
          <PersonTile key={person.id} person={person} selected={selected.has(person.id)} onToggle={() => toggle(person.id)} />
        ))}
      </ul>
      {list.length > 1 && (
        // At the bottom of the screen while choosing, however long the list (a phone's thumb is there).
        <div className="people-merge-bar" data-testid="merge-bar">
          <button type="button" className="button primary" disabled={selected.size < 2 || merge.isPending} onClick={() => merge.mutate({ ids: [...selected] })}>
            {selected.size < 2 ? 'Merge (choose two or more)' : `Merge ${selected.size} people`}
          </button>
          {selected.size > 0 && (
            <button type="button" className="button" onClick={() => setSelected(new Set())}>
              Clear
            </button>
          )}
          <ErrorBubble message={merge.error ? merge.error.message : null} />
        </div>
      )}
      <FacesWithoutPerson />
    </main>
  );
}

/**
 * "Same person?": the likeliest pairs (people.suggestions), a few at a time, above the people. Yes
 * merges them, No keeps them apart for good (people.answer). Y or N answers the card that has the
 * focus, else the first one.
 */
function SamePerson({ people }: { people: PersonCard[] }) {
  const utils = trpc.useUtils();
  const suggestions = trpc.people.suggestions.useQuery();
  const [answered, setAnswered] = useState<Set<string>>(new Set());
  const answer = trpc.people.answer.useMutation({
    onSettled: async () => {
      await utils.people.invalidate();
    },
  });
  const byId = new Map(people.map((p) => [p.id, p]));
  const shown = (suggestions.data ?? [])
    .filter((x) => !answered.has(`${x.a}:${x.b}`) && byId.has(x.a) && byId.has(x.b))
    .slice(0, SUGGESTIONS_SHOWN);
  const reply = useCallback(
    (a: number, b: number, same: boolean) => {
      setAnswered((now) => new Set(now).add(`${a}:${b}`));
      answer.mutate({ a, b, same });
    },
    [answer],
  );
  const first = shown[0];
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      const key = event.key.toLowerCase();
      if (key !== 'y' && key !== 'n') return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]')) return;
      const card = target?.closest<HTMLElement>('[data-pair]');
      const [a, b] = card?.dataset.pair ? card.dataset.pair.split(':').map(Number) : first ? [first.a, first.b] : [];
      if (a === undefined || b === undefined) return;
      event.preventDefault();
      reply(a, b, key === 'y');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [first, reply]);
  if (shown.length === 0) return answer.error ? <ErrorBubble message={answer.error.message} /> : null;
  return (
    <section className="same-person-list" aria-label="Same person?" data-testid="same-person">
      <h2>Same person?</h2>
      <p className="small">Yes joins them into one person, No keeps them apart. Keys: Y and N answer the first card (or the one in focus).</p>
      <ul>
        {shown.map((x, i) => {
          const a = byId.get(x.a)!;
          const b = byId.get(x.b)!;
          return (
            <li key={`${x.a}:${x.b}`} className="card same-person" data-pair={`${x.a}:${x.b}`} data-testid="same-person-card" aria-label={`Same person? Card ${i + 1}`}>
              <div className="same-person-faces">
                <SuggestedFace person={a} />
                <SuggestedFace person={b} />
              </div>
              <div className="same-person-buttons">
                <button type="button" className="button primary" onClick={() => reply(x.a, x.b, true)} aria-keyshortcuts={i === 0 ? 'Y' : undefined}>
                  Yes
                </button>
                <button type="button" className="button" onClick={() => reply(x.a, x.b, false)} aria-keyshortcuts={i === 0 ? 'N' : undefined}>
                  No
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <ErrorBubble message={answer.error ? answer.error.message : null} />
    </section>
  );
}

function SuggestedFace({ person }: { person: PersonCard }) {
  return (
    <figure className="same-person-face">
      {person.cover ? <FaceCrop thumb={thumbOf(person.cover.stem)} box={person.cover.box} label={`Face of ${nameOf(person)}`} /> : <span className="face-crop" />}
      <figcaption className="small">
        {person.name ?? photosText(person.pictureCount)}
        {person.name !== null ? ` · ${photosText(person.pictureCount)}` : ''}
      </figcaption>
    </figure>
  );
}

/** Faces a member took out of a person, each to be given to someone ("This is…"). */
function FacesWithoutPerson() {
  const faces = trpc.people.unassigned.useQuery();
  const list = faces.data ?? [];
  if (list.length === 0) return null;
  return (
    <section className="faces-without" aria-label="Faces without a person" data-testid="faces-without">
      <h2>Faces without a person</h2>
      <ul className="people-grid">
        {list.map((face, i) => (
          <li key={face.faceId} className="card person-card" data-testid="face-without">
            <FaceCrop thumb={thumbOf(face.stem)} box={face.box} label={`Face ${i + 1} without a person`} />
            <ThisIs faceId={face.faceId} label={`Who is face ${i + 1}?`} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function PersonTile({ person, selected, onToggle }: { person: PersonCard; selected: boolean; onToggle: () => void }) {
  return (
    <li className="card person-card" data-testid="person-card">
      <Link to={personPath(person.id)}>
        {person.cover ? <FaceCrop thumb={thumbOf(person.cover.stem)} box={person.cover.box} label={`Face of ${nameOf(person)}`} /> : <span className="face-crop" />}
        <strong>{nameOf(person)}</strong>
        <span className="small" data-testid="person-count">
          {photosText(person.pictureCount)}
          {person.hidden ? ' · hidden' : ''}
        </span>
      </Link>
      <label className="small person-choose">
        <input type="checkbox" checked={selected} onChange={onToggle} aria-label={chooseLabel(person)} /> Merge
      </label>
    </li>
  );
}

function PersonView({ id }: { id: number }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const person = trpc.people.get.useQuery({ id }, { enabled: id > 0, retry: false });
  const [open, setOpen] = useState<number | null>(null);
  const hide = trpc.people.hide.useMutation({ onSuccess: () => utils.people.invalidate() });
  const close = useCallback(() => setOpen(null), []);
  const data = person.data;
  useEffect(() => {
    document.title = data ? nameOf(data) : 'Person';
  }, [data]);
  if (id === 0) {
    return (
      <main className="page">
        <p className="card error-text">That person does not exist</p>
      </main>
    );
  }
  const pictures = data?.pictures ?? [];
  return (
    <main className="page pictures-page person-page">
      <Head title={data ? nameOf(data) : 'Person'}>
        <Link to={PEOPLE_PATH}>All people</Link>
      </Head>
      <LoadProblem query={person} what="this person" />
      {data && (
        <>
          <p className="small">
            {photosText(data.pictureIds.length)}
            {data.hidden ? ' · hidden from the People page' : ''}
          </p>
          <div className="person-head-actions">
            <NameForm person={data} />
            <button type="button" className="button" onClick={() => hide.mutate({ id, hidden: !data.hidden })} disabled={hide.isPending}>
              {data.hidden ? 'Show on the People page' : 'Hide this person'}
            </button>
          </div>
          <ErrorBubble message={hide.error ? hide.error.message : null} />
        </>
      )}
      <ul className="picture-grid" data-testid="picture-grid">
        {pictures.map((picture, i) => (
          <li key={picture.id}>
            <PictureTile picture={picture} index={i} onOpen={() => setOpen(i)} />
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
          tools={(picture) => <TakeOut personId={id} pictureId={picture.id} onGone={() => (close(), navigate(PEOPLE_PATH))} />}
        />
      )}
    </main>
  );
}

function NameForm({ person }: { person: PersonDetail }) {
  const utils = trpc.useUtils();
  const [name, setName] = useState(person.name ?? '');
  const save = trpc.people.name.useMutation({ onSuccess: () => utils.people.invalidate() });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ id: person.id, name: name.trim() === '' ? null : name });
  };
  return (
    <form onSubmit={submit} className="tag-form" aria-label="Name this person">
      <TextInput label="Name" value={name} onValueChange={setName} maxLength={PERSON_NAME_MAX} />
      <button type="submit" className="button primary" disabled={save.isPending}>
        Save name
      </button>
      {save.isSuccess && !save.isPending && <span className="small">Saved</span>}
      <ErrorBubble message={save.error ? save.error.message : null} />
    </form>
  );
}

/** "Not this person": takes this person's face in the open picture out of them. */
function TakeOut({ personId, pictureId, onGone }: { personId: number; pictureId: number; onGone: () => void }) {
  const utils = trpc.useUtils();
  const faces = trpc.people.inPicture.useQuery({ pictureId });
  const face = faces.data?.find((f) => f.personId === personId);
  const remove = trpc.people.removeFace.useMutation({
    onSuccess: async () => {
      await utils.people.invalidate();
      const left = await utils.people.get.fetch({ id: personId }).catch(() => null);
      if (!left || left.pictureIds.length === 0) onGone();
    },
  });
  if (!face) return null;
  return (
    <p>
      <button type="button" className="button" onClick={() => remove.mutate({ faceId: face.faceId })} disabled={remove.isPending}>
        Not this person: take this face out
      </button>
      <ErrorBubble message={remove.error ? remove.error.message : null} />
    </p>
  );
}
