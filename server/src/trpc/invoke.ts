import {
  callTRPCProcedure,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  TRPCError,
  type AnyProcedure,
  type AnyRouter,
  type ProcedureType,
} from '@trpc/server';
import type { Context } from './context.ts';
import { t } from './trpc.ts';

/**
 * The root router's procedures. trpc/ knows no area: the composition (router.ts) hands its root router
 * over once, when it is built, and everything that serves procedures imports router.ts.
 */
let root: AnyRouter | undefined;
let table: Record<string, AnyProcedure | undefined> = {};
const config = t._config;

export function serveRouter(router: AnyRouter): void {
  root = router;
  table = router._def.procedures as unknown as Record<string, AnyProcedure | undefined>;
}

function rootRouter(): AnyRouter {
  if (!root) throw new Error('No root router: import server/src/router.ts before serving procedures');
  return root;
}

export function findProcedure(path: string): AnyProcedure | undefined {
  return Object.hasOwn(table, path) ? table[path] : undefined;
}

type InvokeOptions = { type?: ProcedureType; batchIndex?: number };

/**
 * Runs one procedure exactly as tRPC's own handlers do (middlewares, input parsing, output), without
 * the per-request Request/Response objects of the stock adapter. `type` is what the HTTP method
 * allows; undefined accepts the procedure's own type (the /api paths are all POST).
 *
 * The middlewares run in `callAt` below, a copy of what tRPC's procedure caller does, because
 * tRPC's own (reached through the public `callTRPCProcedure`, see `invokeThroughTrpc`) copies the
 * options with a generic object-spread helper at every level of every call, which was the largest
 * single cost of a /trpc request (`npm run bench:http`). test/invoke-parity.test.ts runs every
 * procedure through both, at every access level, with valid and invalid input, and compares results
 * and errors, so an upgrade of tRPC that changes the caller fails that test.
 */
export async function invoke(path: string, ctx: Context, input: unknown, opts: InvokeOptions = {}): Promise<unknown> {
  const proc = procedureFor(path, opts.type);
  const call = callOptions(proc, path, ctx, input, opts);
  const def = proc._def as unknown as ProcedureDef;
  if (def.experimental_caller) return proc(call);
  const result = await callAt(0, def, call);
  if (!result) {
    throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares - did you forget to `return next()`?' });
  }
  if (!result.ok) throw result.error;
  return result.data;
}

/** The same call through tRPC's public `callTRPCProcedure` (the reference `invoke` is tested against). */
export async function invokeThroughTrpc(path: string, ctx: Context, input: unknown, opts: InvokeOptions = {}): Promise<unknown> {
  const proc = procedureFor(path, opts.type);
  return callTRPCProcedure({ router: rootRouter(), ...callOptions(proc, path, ctx, input, opts) });
}

/** What both callers give the procedure: tRPC's own procedure options. */
function callOptions(proc: AnyProcedure, path: string, ctx: Context, input: unknown, opts: InvokeOptions): CallOptions {
  return {
    path,
    ctx,
    type: proc._def.type,
    getRawInput: input === undefined ? noRawInput : rawInputOf(input),
    signal: undefined,
    batchIndex: opts.batchIndex ?? 0,
    input: undefined,
  };
}

function procedureFor(path: string, allowed: ProcedureType | undefined): AnyProcedure {
  const proc = findProcedure(path);
  if (!proc) throw new TRPCError({ code: 'NOT_FOUND', message: `No procedure found on path "${path}"` });
  const type = proc._def.type;
  if (allowed && type !== allowed) {
    throw new TRPCError({
      code: 'METHOD_NOT_SUPPORTED',
      message: `Unsupported ${allowed === 'query' ? 'GET' : 'POST'}-request to ${type} procedure at path "${path}"`,
    });
  }
  return proc;
}

const noRawInput = () => Promise.resolve(undefined);
function rawInputOf(input: unknown): () => Promise<unknown> {
  return () => Promise.resolve(input);
}

type CallOptions = {
  path: string;
  ctx: unknown;
  type: ProcedureType;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
  input: unknown;
};
type NextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> } | undefined;
/** tRPC's middleware result; `marker` is a brand no caller reads. */
type Result = { ok: true; data: unknown; ctx: unknown; marker: unknown } | { ok: false; error: TRPCError; marker: unknown };
type Middleware = (opts: CallOptions & { meta: unknown; next: (next?: NextOptions) => Promise<Result> }) => Promise<Result>;
type ProcedureDef = { middlewares: Middleware[]; meta: unknown; experimental_caller?: boolean };

const marker = 'middlewareMarker';

/**
 * One middleware of a procedure, as tRPC's procedure caller runs it (createProcedureCaller and
 * callRecursive, 11.19): the middlewares in order (our access guard, tRPC's input and output parsers,
 * the resolver) with the same options, the same `next()` merging of ctx and input, and the same error
 * results; the options are plain object literals instead of spread copies.
 */
async function callAt(index: number, def: ProcedureDef, opts: CallOptions): Promise<Result> {
  try {
    const middleware = def.middlewares[index];
    if (!middleware) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No more middlewares' });
    return await middleware({
      path: opts.path,
      ctx: opts.ctx,
      type: opts.type,
      getRawInput: opts.getRawInput,
      signal: opts.signal,
      batchIndex: opts.batchIndex,
      input: opts.input,
      meta: def.meta,
      next: (next?: NextOptions) =>
        callAt(index + 1, def, {
          path: opts.path,
          ctx: next?.ctx ? { ...(opts.ctx as object), ...next.ctx } : opts.ctx,
          type: opts.type,
          getRawInput: next?.getRawInput ?? opts.getRawInput,
          signal: opts.signal,
          batchIndex: opts.batchIndex,
          input: next && 'input' in next ? next.input : opts.input,
        }),
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause), marker };
  }
}

export type ErrorShape = (typeof t)['_config']['$types']['errorShape'];

/** The error as tRPC would send it, after the router's errorFormatter. */
export function errorShapeOf(
  cause: unknown,
  where: { path: string | undefined; input: unknown; ctx: Context | undefined; type: ProcedureType | 'unknown' },
): { error: TRPCError; shape: ErrorShape } {
  const error = getTRPCErrorFromUnknown(cause);
  const shape = getTRPCErrorShape({ config, error, path: where.path, input: where.input, ctx: where.ctx, type: where.type });
  return { error, shape: shape as ErrorShape };
}
