import type { Level } from '@site/contracts';

/** The signed-in account behind a request. */
export type SessionUser = { id: number; name: string; level: Level };

/**
 * Who is doing something: a signed-in account, or the owner at the command line (`npm run user`),
 * which may do anything. Anonymous requests never act: their procedures take no actor.
 */
export type Actor = { kind: 'user'; user: SessionUser } | { kind: 'cli' };

export const cliActor: Actor = { kind: 'cli' };
export const userActor = (user: SessionUser): Actor => ({ kind: 'user', user });
