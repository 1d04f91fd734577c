import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PEOPLE_PATH, PERSON_NAME_MAX, personPath, type PersonCard, type PersonDetail } from '@site/contracts/people';
import { DEFAULT_GALLERY_PATH, mediaUrl } from '@site/contracts/pictures';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadProblem } from '../../components/Loaded.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { FaceCrop } from './InPicture.tsx';
import { PictureTile } from './media.tsx';
import { MemberViewer } from './MemberViewer.tsx';
import './pictures.css';
import './people.css';

const thumbOf = (stem: string) => mediaUrl(`${stem}.jpg`, 'thumb');
const nameOf = (person: { name: string | null }) => person.name ?? 'Someone unnamed';
const facesText = (n: number) => `${n} ${n === 1 ? 'picture' : 'pictures'}`;

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
      <div className="people-actions">
        <button type="button" className="button primary" disabled={selected.size < 2 || merge.isPending} onClick={() => merge.mutate({ ids: [...selected] })}>
          {selected.size < 2 ? 'Merge (choose two or more)' : `Merge ${selected.size} people`}
        </button>
        <label>
          <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} /> Show hidden people
        </label>
      </div>
      <ErrorBubble message={merge.error ? merge.error.message : null} />
      <LoadProblem query={people} what="the people" />
      {people.data && list.length === 0 && <p className="card">Nobody found yet. Faces appear here as the pictures are read.</p>}
      <ul className="people-grid" data-testid="people-list">
        {list.map((person) => (
          <PersonTile key={person.id} person={person} selected={selected.has(person.id)} onToggle={() => toggle(person.id)} />
        ))}
      </ul>
    </main>
  );
}

function PersonTile({ person, selected, onToggle }: { person: PersonCard; selected: boolean; onToggle: () => void }) {
  return (
    <li className="card person-card" data-testid="person-card">
      <Link to={personPath(person.id)}>
        {person.cover ? <FaceCrop thumb={thumbOf(person.cover.stem)} box={person.cover.box} label={`Face of ${nameOf(person)}`} /> : <span className="face-crop" />}
        <strong>{nameOf(person)}</strong>
        <span className="small" data-testid="person-count">
          {facesText(person.pictureCount)}
          {person.hidden ? ' · hidden' : ''}
        </span>
      </Link>
      <label className="small">
        <input type="checkbox" checked={selected} onChange={onToggle} aria-label={`Choose ${nameOf(person)} to merge`} /> Merge
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
            {facesText(data.pictureIds.length)}
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
