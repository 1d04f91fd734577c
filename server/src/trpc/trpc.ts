import { initTRPC } from '@trpc/server';
import { accessMessages } from '@site/contracts';
import { AppError } from '../errors.ts';
import type { Context } from './context.ts';

export type Meta = { path: string };

type Issue = { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[]; params?: { named?: boolean } };

/**
 * The first validation issue as a sentence, e.g. "menuColor: Colours are written as #rrggbb"; the
 * shared text type's messages name their field already ('Task may not be empty') and stand alone.
 */
function firstIssue(cause: unknown): string | null {
  if (typeof cause !== 'object' || cause === null || !('issues' in cause)) return null;
  const issues = (cause as { issues: unknown }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return null;
  const issue = issues[0] as Issue;
  if (issue.params?.named) return issue.message;
  const where = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}

export const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    isDev: false,
    errorFormatter({ shape, error }) {
      const data: typeof shape.data & { preauth?: true } = { ...shape.data };
      delete data.stack;
      let message = shape.message;
      if (error.code === 'BAD_REQUEST') message = firstIssue(error.cause) ?? message;
      if (error.code === 'INTERNAL_SERVER_ERROR') message = accessMessages.internal;
      if (error.cause instanceof AppError && error.cause.preauth) data.preauth = true;
      return { ...shape, message, data };
    },
  });
