import { useState, type FormEvent } from 'react';
import { COMMENT_MAX, heartNames, type PictureSocial, type SocialComment } from '@site/contracts/pictures';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadProblem } from '../../components/Loaded.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { useLive } from '../../lib/live.ts';
import { trpc } from '../../lib/trpc.ts';
import './social.css';

/** What a member can do; a panel without actions is read-only (a guest's view). */
export type SocialActions = {
  heart: (on: boolean) => void;
  comment: (text: string, done: () => void) => void;
  edit: (commentId: number, text: string, done: () => void) => void;
  remove: (commentId: number) => void;
  busy: boolean;
  error: string | null;
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeText = (iso: string) => when.format(new Date(iso));

function Comment({ comment, actions }: { comment: SocialComment; actions: SocialActions | null }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(comment.text);
  const save = (event: FormEvent) => {
    event.preventDefault();
    actions?.edit(comment.id, text, () => setEditing(false));
  };
  return (
    <li className="social-comment" data-testid="social-comment">
      <p className="social-comment-head small">
        <strong>{comment.author}</strong> <time dateTime={comment.createdAt}>{timeText(comment.createdAt)}</time>
        {comment.editedAt && <span title={`Edited ${timeText(comment.editedAt)}`}> (edited)</span>}
      </p>
      {editing && actions ? (
        <form onSubmit={save} aria-label="Edit comment">
          <TextInput label="Edited comment" value={text} onValueChange={setText} maxLength={COMMENT_MAX} multiline autoFocus />
          <div className="link-row">
            <button type="submit" className="button" disabled={actions.busy}>
              Save
            </button>
            <button
              type="button"
              className="button"
              onClick={() => {
                setText(comment.text);
                setEditing(false);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p className="social-comment-text">{comment.text}</p>
      )}
      {actions && !editing && (comment.mine || comment.mayDelete) && (
        <div className="link-row">
          {comment.mine && (
            <button type="button" className="button" onClick={() => setEditing(true)} aria-label={`Edit your comment of ${timeText(comment.createdAt)}`}>
              Edit
            </button>
          )}
          {comment.mayDelete && (
            <button
              type="button"
              className="button danger"
              aria-label={`Delete ${comment.mine ? 'your' : `${comment.author}'s`} comment of ${timeText(comment.createdAt)}`}
              onClick={() => {
                if (window.confirm('Delete this comment?')) actions.remove(comment.id);
              }}
            >
              Delete
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * A picture's hearts and comments: the count and who gave them, then the comments with author and
 * time. With `actions`, a heart toggle, a comment form, and Edit/Delete where the server says the
 * viewer may; without, read-only (a guest on a shared album sees them but adds nothing).
 */
export function SocialPanel({ social, actions = null }: { social: PictureSocial; actions?: SocialActions | null }) {
  const [draft, setDraft] = useState('');
  const { hearts, comments } = social;
  const send = (event: FormEvent) => {
    event.preventDefault();
    actions?.comment(draft, () => setDraft(''));
  };
  const who = heartNames(hearts.names);
  return (
    <section className="viewer-social" aria-label="Hearts and comments" data-testid="viewer-social">
      <div className="social-hearts">
        {actions ? (
          <button
            type="button"
            className={`button heart-button${hearts.mine ? ' on' : ''}`}
            aria-pressed={hearts.mine}
            onClick={() => actions.heart(!hearts.mine)}
            disabled={actions.busy}
          >
            <span aria-hidden="true">{hearts.mine ? '♥' : '♡'}</span> {hearts.mine ? 'Hearted' : 'Heart'}
          </button>
        ) : (
          <span className="heart-count" aria-hidden="true">
            ♥
          </span>
        )}
        <span className="small" data-testid="heart-summary">
          {hearts.count === 0 ? 'No hearts yet' : `${hearts.count} ${hearts.count === 1 ? 'heart' : 'hearts'}: ${who}`}
        </span>
      </div>
      {comments.length > 0 && (
        <ul className="social-comments" aria-label="Comments">
          {comments.map((c) => (
            <Comment key={`${c.id} ${c.editedAt ?? ''}`} comment={c} actions={actions} />
          ))}
        </ul>
      )}
      {actions && (
        <form className="social-form" onSubmit={send} aria-label="New comment">
          <TextInput label="Add a comment" value={draft} onValueChange={setDraft} maxLength={COMMENT_MAX} multiline />
          <button type="submit" className="button" disabled={actions.busy || draft.trim() === ''}>
            Comment
          </button>
        </form>
      )}
      {actions && <ErrorBubble message={actions.error} testId="social-error" />}
    </section>
  );
}

/**
 * A member's panel in the gallery's viewer: reads `pictures.social` and keeps it live (every heart and
 * comment anywhere makes open viewers read their picture's again), with the member's actions.
 */
export function MemberSocial({ pictureId, readOnly = false }: { pictureId: number; readOnly?: boolean }) {
  useLive(['pictureSocial']);
  const utils = trpc.useUtils();
  const query = trpc.pictures.social.useQuery({ id: pictureId });
  const onSuccess = (data: PictureSocial) => utils.pictures.social.setData({ id: pictureId }, data);
  const heart = trpc.pictures.heart.useMutation({ onSuccess });
  const comment = trpc.pictures.comment.useMutation({ onSuccess });
  const edit = trpc.pictures.editComment.useMutation({ onSuccess });
  const remove = trpc.pictures.deleteComment.useMutation({ onSuccess });
  const mutations = [heart, comment, edit, remove];
  const failed = mutations.find((m) => m.error)?.error ?? null;
  // One message at a time: a new action clears the last one's refusal.
  const fresh = () => mutations.forEach((m) => m.reset());
  const actions: SocialActions = {
    heart: (on) => (fresh(), heart.mutate({ id: pictureId, on })),
    comment: (text, done) => (fresh(), comment.mutate({ id: pictureId, text }, { onSuccess: done })),
    edit: (commentId, text, done) => (fresh(), edit.mutate({ commentId, text }, { onSuccess: done })),
    remove: (commentId) => (fresh(), remove.mutate({ commentId })),
    busy: mutations.some((m) => m.isPending),
    error: failed ? failed.message : null,
  };
  return (
    <>
      <LoadProblem query={query} what="the hearts and comments" />
      {query.data && <SocialPanel social={query.data} actions={readOnly ? null : actions} />}
    </>
  );
}
