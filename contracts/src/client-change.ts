import { z } from 'zod';

export const clientChangeMessages = {
  badClientId: 'A change id is a UUID made by the browser',
  reused: 'That change id was already used for another change',
} as const;

/**
 * The id a browser gives one change it makes (a UUID, made before the change is sent or queued
 * offline). The server applies a change with a given id once per account: sending it again, after a
 * lost answer or from the offline queue, answers what the first time answered and changes nothing.
 */
export const clientChangeId = z.uuid({ error: clientChangeMessages.badClientId });
