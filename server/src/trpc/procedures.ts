import { TRPCError } from '@trpc/server';
import { accessMessages, allows, procedures, type Access, type ProcedurePath } from '@site/contracts';
import { AppError } from '../errors.ts';
import { t } from './trpc.ts';

const toTRPCError = (error: AppError) => new TRPCError({ code: error.code, message: error.message, cause: error });

/**
 * One middleware per procedure (each level of middleware costs on every call): the access gate from
 * the permission table, then domain errors turned into tRPC errors in this one place; anything else
 * stays a 500. The gate runs before input validation: a refused caller learns nothing about inputs.
 */
function guard(access: Access) {
  return t.middleware(async ({ ctx, next }) => {
    if (!allows(access, ctx.viewer)) {
      throw toTRPCError(
        ctx.viewer
          ? new AppError('FORBIDDEN', accessMessages.levelTooLow, { preauth: ctx.viewer.level === 0 })
          : new AppError('UNAUTHORIZED', accessMessages.signInRequired),
      );
    }
    const result = await next();
    if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
    return result;
  });
}

/**
 * The only way to start a procedure: its access comes from the permission table in contracts, so a
 * procedure without an entry there cannot be written. The path is recorded in the meta, and
 * root.ts checks that every procedure sits at the path it was built for.
 */
export function procedure(path: ProcedurePath) {
  return t.procedure.meta({ path }).use(guard(procedures[path]));
}

export const router = t.router;
