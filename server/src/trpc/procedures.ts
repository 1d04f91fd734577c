import { TRPCError } from '@trpc/server';
import { accessMessages, allows, procedures, type Access, type ProcedurePath } from '@site/contracts';
import { AppError } from '../errors.ts';
import { t } from './trpc.ts';

/** Turns domain errors into tRPC errors in one place; anything else stays a 500. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: cause.code, message: cause.message, cause });
  }
  return result;
});

function gate(access: Access) {
  return t.middleware(({ ctx, next }) => {
    if (!allows(access, ctx.viewer)) {
      if (!ctx.viewer) throw new AppError('UNAUTHORIZED', accessMessages.signInRequired);
      throw new AppError('FORBIDDEN', accessMessages.levelTooLow, { preauth: ctx.viewer.level === 0 });
    }
    return next();
  });
}

const base = t.procedure.use(domainErrors);

/**
 * The only way to start a procedure: its access comes from the permission table in contracts, so a
 * procedure without an entry there cannot be written. The path is recorded in the meta, and
 * root.ts checks that every procedure sits at the path it was built for.
 * The gate runs before input validation: a refused caller learns nothing about the input rules.
 */
export function procedure(path: ProcedurePath) {
  return base.meta({ path }).use(gate(procedures[path]));
}

export const router = t.router;
