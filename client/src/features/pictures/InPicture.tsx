import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PERSON_NAME_MAX, TAG_MAX, personPath, type FaceBox } from '@site/contracts/people';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import './people.css';

/** A face cut out of a picture's thumbnail (a box of fractions of its size), as a square tile. */
export function FaceCrop({ thumb, box, label }: { thumb: string; box: FaceBox; label: string }) {
  // The face box is square in pixels: scaled to fill the tile, the thumbnail is 1/w wide and 1/h tall.
  const margin = 0.15;
  const x = Math.max(0, box.x - box.w * margin);
  const y = Math.max(0, box.y - box.h * margin);
  const w = Math.min(1 - x, box.w * (1 + 2 * margin));
  const h = Math.min(1 - y, box.h * (1 + 2 * margin));
  return (
    <span
      className="face-crop"
      role="img"
      aria-label={label}
      style={{
        backgroundImage: `url("${thumb}")`,
        backgroundSize: `${100 / w}% ${100 / h}%`,
        backgroundPosition: `${w >= 1 ? 0 : (x / (1 - w)) * 100}% ${h >= 1 ? 0 : (y / (1 - h)) * 100}%`,
      }}
    />
  );
}

/**
 * "This is…": gives a face that belongs to nobody to a person. The field offers the known names (a
 * native combobox: an input with its list); a name that is nobody's yet makes a new person.
 */
export function ThisIs({ faceId, label, onDone }: { faceId: number; label: string; onDone?: () => void }) {
  const utils = trpc.useUtils();
  const people = trpc.people.list.useQuery();
  const [name, setName] = useState('');
  const listId = useId();
  const assign = trpc.people.assignFace.useMutation({
    onSuccess: async () => {
      setName('');
      await utils.people.invalidate();
      onDone?.();
    },
  });
  const named = (people.data ?? []).filter((p) => p.name !== null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = name.trim();
    if (typed === '') return;
    const known = named.find((p) => p.name!.toLocaleLowerCase() === typed.toLocaleLowerCase());
    assign.mutate(known ? { faceId, personId: known.id } : { faceId, name: typed });
  };
  return (
    <form className="tag-form this-is" onSubmit={submit} aria-label={label}>
      <TextInput label="This is…" value={name} onValueChange={setName} maxLength={PERSON_NAME_MAX} list={listId} autoComplete="off" />
      <datalist id={listId}>
        {named.map((p) => (
          <option key={p.id} value={p.name!} />
        ))}
      </datalist>
      <button type="submit" className="button" disabled={assign.isPending || name.trim() === ''}>
        Save
      </button>
      <ErrorBubble message={assign.error ? assign.error.message : null} />
    </form>
  );
}

/** Under a picture in the viewer: who is in it (named people link to their page) and its tags, with the member's own to add and remove. */
export function InPicture({ pictureId, thumb }: { pictureId: number; thumb: string }) {
  const utils = trpc.useUtils();
  const faces = trpc.people.inPicture.useQuery({ pictureId });
  const tags = trpc.tags.list.useQuery({ pictureId });
  const [tag, setTag] = useState('');
  const refresh = () => utils.tags.list.invalidate({ pictureId });
  const add = trpc.tags.add.useMutation({
    onSuccess: () => {
      setTag('');
      void refresh();
    },
  });
  const remove = trpc.tags.remove.useMutation({ onSuccess: refresh });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ pictureId, tag });
  };
  const people = faces.data ?? [];
  const named = people.filter((f) => f.personId !== null);
  const nobody = people.filter((f) => f.personId === null);
  const error = add.error ?? remove.error;
  return (
    <section className="in-picture" aria-label="In this picture" data-testid="in-picture">
      {named.length > 0 && (
        <p className="in-picture-people">
          <span className="small">In this picture: </span>
          {named.map((face, i) => (
            <span key={face.faceId}>
              {i > 0 && ', '}
              <Link to={personPath(face.personId!)}>{face.name ?? 'Someone unnamed'}</Link>
            </span>
          ))}
        </p>
      )}
      {nobody.length > 0 && (
        <ul className="faces-nobody" aria-label="Faces without a person">
          {nobody.map((face, i) => (
            <li key={face.faceId}>
              <FaceCrop thumb={thumb} box={face.box} label={nobody.length === 1 ? 'A face without a person' : `Face ${i + 1} without a person`} />
              <ThisIs faceId={face.faceId} label={nobody.length === 1 ? 'Who is this face?' : `Who is face ${i + 1}?`} />
            </li>
          ))}
        </ul>
      )}
      <ul className="tag-list" aria-label="Tags">
        {(tags.data ?? []).map((t) => (
          <li key={`${t.source}-${t.tag}-${t.mine ? 'mine' : ''}`} className={`tag tag-${t.source}`}>
            <span title={t.confidence === null ? 'Added by a member' : `Seen by the detector, ${Math.round(t.confidence * 100)}% sure`}>{t.tag}</span>
            {t.mine && (
              <button type="button" className="tag-remove" aria-label={`Remove the tag ${t.tag}`} onClick={() => remove.mutate({ pictureId, tag: t.tag })}>
                ✕
              </button>
            )}
          </li>
        ))}
      </ul>
      <form className="tag-form" onSubmit={submit} aria-label="Your tag">
        <TextInput label="Add a tag" value={tag} onValueChange={setTag} maxLength={TAG_MAX} enterSubmits />
        <button type="submit" className="button" disabled={add.isPending}>
          Add
        </button>
      </form>
      <ErrorBubble message={error ? error.message : null} />
    </section>
  );
}
