import { TRPCError } from '@trpc/server';
import { accessMessages, allows, needsBrowser, procedures, procedureScope, scopeMessages, scopesAllow, type BrowserRule, type ProcedureAccess, type ProcedurePath } from '@site/contracts';
import { AppError } from '../errors.ts';
import { t } from './trpc.ts';

const toTRPCError = (error: AppError) => new TRPCError({ code: error.code, message: error.message, cause: error });

/** The refusal of a caller the access rule does not let through: 401 signed out, 403 too low. */
export function accessRefusal(viewer: { level: number } | null): AppError {
  return viewer
    ? new AppError('FORBIDDEN', accessMessages.levelTooLow, { preauth: viewer.level === 0 })
    : new AppError('UNAUTHORIZED', accessMessages.signInRequired);
}

/**
 * The refusal of a personal API token whose scopes (contracts/src/scopes.ts) do not cover a call that
 * needs `scope` (null: a route of no area), or null when they do. Checked after the level, in the
 * procedure gate below and the HTTP routes' gate (http/routes.ts): a scope never raises a level.
 */
export function scopeRefusal(scopes: readonly string[] | null, scope: string | null): AppError | null {
  if (scopesAllow(scopes, scope)) return null;
  return new AppError('FORBIDDEN', scope === null ? scopeMessages.everything : scopeMessages.missing(scope));
}

/**
 * One middleware per procedure (each level of middleware costs on every call): the access gate from
 * the permission table, then domain errors turned into tRPC errors in this one place; anything else
 * stays a 500. The gate runs before input validation: a refused caller learns nothing about inputs.
 * A personal API token with scopes is refused a call outside them here too (`scopeRefusal`).
 */
function publicGuard() {
  return t.middleware(async ({ ctx, path, type, next }) => {
    if (ctx.scopes !== null) {
      const refusal = scopeRefusal(ctx.scopes, procedureScope(path, type));
      if (refusal) throw toTRPCError(refusal);
    }
    const result = await next();
    if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
    return result;
  });
}

/** The same for rules that need an account: the handler's ctx.user is then never null. */
function memberGuard(access: Exclude<ProcedureAccess, 'public'>) {
  return t.middleware(async ({ ctx, path, type, next }) => {
    const user = ctx.user;
    if (!user || !allows(access, ctx.viewer, ctx.port)) throw toTRPCError(accessRefusal(ctx.viewer));
    if (ctx.scopes !== null) {
      const refusal = scopeRefusal(ctx.scopes, procedureScope(path, type));
      if (refusal) throw toTRPCError(refusal);
    }
    // A change the offline queue kept for one account is applied only under that account's session.
    if (ctx.account !== null && ctx.account !== user.name.toLowerCase()) throw toTRPCError(new AppError('PRECONDITION_FAILED', accessMessages.otherAccount));
    const result = await next({ ctx: { user } });
    if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
    return result;
  });
}

/**
 * After the member gate, for a change to an account (`BrowserRule`): the caller must have come with a
 * session cookie, never a personal API token, and the handler gets that session's hash. This is the
 * one place the rule is enforced, read from the row, so no account change can forget it.
 */
const browserOnly = t.middleware(({ ctx, next }) => {
  const sessionHash = ctx.sessionHash;
  if (sessionHash === null) throw toTRPCError(new AppError('FORBIDDEN', accessMessages.browserOnly));
  return next({ ctx: { sessionHash } });
});

const publicBase = t.procedure.use(publicGuard());
const memberBase = (access: Exclude<ProcedureAccess, 'public'>) => t.procedure.use(memberGuard(access));
const browserBase = (rule: BrowserRule) => memberBase(rule).use(browserOnly);

type BaseOf<A> = A extends 'public' ? typeof publicBase : A extends BrowserRule ? ReturnType<typeof browserBase> : ReturnType<typeof memberBase>;

/**
 * The only way to start a procedure: its access comes from the permission table in contracts, so a
 * procedure without an entry there cannot be written. Unless the row says 'public', handlers get a
 * non-null `ctx.user`; a `BrowserRule` row's handlers also a non-null `ctx.sessionHash`. The path is recorded in the meta, and root.ts checks that every procedure
 * sits at the path it was built for.
 */
export function procedure<P extends ProcedurePath>(path: P): BaseOf<(typeof procedures)[P]> {
  const access: ProcedureAccess = procedures[path];
  const base = access === 'public' ? publicBase : needsBrowser(access) ? browserBase(access) : memberBase(access);
  return base.meta({ path }) as never;
}

export const router = t.router;
