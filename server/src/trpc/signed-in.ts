import { accessMessages } from '@site/contracts';
import type { SessionUser } from '../areas/auth/sessions.ts';
import { AppError } from '../errors.ts';
import type { Context } from './context.ts';

/** The signed-in account of a procedure whose gate already demands one (narrows the type). */
export function signedIn(ctx: Context): SessionUser {
  if (!ctx.user) throw new AppError('UNAUTHORIZED', accessMessages.signInRequired);
  return ctx.user;
}
