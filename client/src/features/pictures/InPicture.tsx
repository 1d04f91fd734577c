import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { TAG_MAX, personPath, type FaceBox } from '@site/contracts/people';
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

/** Under a picture in the viewer: who is in it (named people link to their page) and its tags, with the member's own to add and remove. */
export function InPicture({ pictureId }: { pictureId: number }) {
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
