import { mayReceive, NOTIFICATION_KINDS, type NotificationKind } from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import { dinnerMeal } from './notifications.plan.ts';
import type { NotificationEventRecord } from './notifications.tables.ts';

type Member = { id: number; level: number };

/**
 * Who may receive an event NOW: decided when it is sent, never only when it was made. The kind's
 * procedure row in the permission table (a member whose level was lowered meanwhile is out), then
 * whether the thing it is about still exists and is theirs to see. New kinds add their rule here.
 */
export async function recipientsOf(db: Executor, event: NotificationEventRecord, only?: readonly number[]): Promise<number[]> {
  if (!isKind(event.kind)) return [];
  const kindName: NotificationKind = event.kind;
  const kind = NOTIFICATION_KINDS[kindName];
  let query = db.selectFrom('users').select(['users.id', 'users.level']);
  if (kind.to === 'member') query = query.where('users.id', '=', event.user_id ?? 0);
  if (kind.to === 'others' && event.actor_id !== null) query = query.where('users.id', '!=', event.actor_id);
  if (kind.to === 'followers') {
    query = query.where('users.id', 'in', db.selectFrom('notification_follows').select('user_id').where('server_id', '=', event.subject_id ?? 0));
  }
  if (only) query = only.length === 0 ? query.where('users.id', '=', 0) : query.where('users.id', 'in', only);
  const members = (await query.execute()).filter((u: Member) => mayReceive(kindName, { name: '', level: u.level as 0 | 1 | 2 | 3 }));
  if (members.length === 0) return [];
  const sees = await subjectRule(db, event.kind, event);
  return members.filter(sees).map((u) => u.id);
}

function isKind(kind: string): kind is NotificationKind {
  return Object.hasOwn(NOTIFICATION_KINDS, kind);
}

/** Whether each member may still see what the event is about. */
async function subjectRule(db: Executor, kind: NotificationKind, event: NotificationEventRecord): Promise<(m: Member) => boolean> {
  const none = () => false;
  const all = () => true;
  switch (kind) {
    case 'picture.waiting':
      // One event for an uploader's waiting pictures (notifications.events.ts): open until none waits.
      return event.done_at === null ? all : none;
    case 'picture.approved':
    case 'picture.social': {
      const picture = await db.selectFrom('pictures').select(['status', 'uploaded_by']).where('id', '=', event.subject_id ?? 0).executeTakeFirst();
      if (!picture) return none;
      if (kind === 'picture.approved' && picture.status !== 'approved') return none;
      // The gallery's rule: approved pictures to every member, a pending one to its uploader and admins.
      return (m) => picture.status === 'approved' || m.level >= 3 || picture.uploaded_by === m.id;
    }
    case 'account.waiting': {
      const account = await db.selectFrom('users').select('level').where('id', '=', event.subject_id ?? 0).executeTakeFirst();
      return account?.level === 0 && event.done_at === null ? all : none;
    }
    case 'house.added': {
      const task = await db.selectFrom('house_tasks').select('id').where('id', '=', event.subject_id ?? 0).executeTakeFirst();
      return task ? all : none;
    }
    case 'dinner.tonight': {
      // Still the cook of that slot, and the slot still the day's dinner.
      const slot = await db.selectFrom('plan_slots').select(['cook_id', 'meal_id']).where('id', '=', event.subject_id ?? 0).executeTakeFirst();
      const meal = await dinnerMeal(db);
      return slot && slot.meal_id === meal?.id ? (m) => slot.cook_id === m.id : none;
    }
    case 'server.down':
    case 'server.up':
    case 'ytdl.done':
    case 'onthisday':
    case 'chore.due':
    case 'webhook.paused':
      return all;
  }
}
