import { TRPCError, type AnyProcedure, type ProcedureType } from '@trpc/server';
import { getErrorShape, getTRPCErrorFromUnknown, middlewareMarker } from '@trpc/server/unstable-core-do-not-import';
import type { Context } from './context.ts';
import { appRouter, type AppRouter } from './root.ts';

const table = appRouter._def.procedures as unknown as Record<string, AnyProcedure | undefined>;
const config = appRouter._def._config;

export function findProcedure(path: string): AnyProcedure | undefined {
  return Object.hasOwn(table, path) ? table[path] : undefined;
}

/**
 * Runs one procedure exactly as tRPC's own handlers do (middlewares, input parsing, output), without
 * the per-request Request/Response objects of the stock adapter. `type` is what the HTTP method
 * allows; undefined accepts the procedure's own type (the /api paths are all POST).
 */
export async function invoke(
  path: string,
  ctx: Context,
  input: unknown,
  opts: { type?: ProcedureType; batchIndex?: number } = {},
): Promise<unknown> {
  const proc = findProcedure(path);
  if (!proc) throw new TRPCError({ code: 'NOT_FOUND', message: `No procedure found on path "${path}"` });
  const type = proc._def.type;
  if (opts.type && type !== opts.type) {
    throw new TRPCError({
      code: 'METHOD_NOT_SUPPORTED',
      message: `Unsupported ${opts.type === 'query' ? 'GET' : 'POST'}-request to ${type} procedure at path "${path}"`,
    });
  }
  return run(proc, {
    path,
    ctx,
    type,
    getRawInput: input === undefined ? noRawInput : rawInputOf(input),
    signal: undefined,
    batchIndex: opts.batchIndex ?? 0,
  });
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
  input?: unknown;
};
type NextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> } | undefined;
type Result = { ok: true; data: unknown; ctx: unknown; marker: string } | { ok: false; error: TRPCError; marker: string };
type Middleware = (opts: CallOptions & { meta: unknown; next: (next?: NextOptions) => Promise<Result> }) => Promise<Result>;

/**
 * What calling `proc(opts)` does (tRPC's createProcedureCaller and callRecursive, 11.19): the
 * procedure's own middlewares in order (our guard, tRPC's input/output parsers, the resolver), with
 * the same options, the same `next()` merging of ctx and input, and the same error results. tRPC
 * copies the options with a generic object-spread helper at every level, which was the largest
 * single cost of a call; here they are plain object literals.
 */
async function run(proc: AnyProcedure, opts: CallOptions): Promise<unknown> {
  const def = proc._def as unknown as { middlewares: Middleware[]; meta: unknown; experimental_caller?: boolean };
  if (def.experimental_caller) return proc(opts);
  const result = await callAt(0, def.middlewares, def.meta, opts);
  if (!result) {
    throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares - did you forget to `return next()`?' });
  }
  if (!result.ok) throw result.error;
  return result.data;
}

function nextOf(index: number, middlewares: Middleware[], meta: unknown, opts: CallOptions) {
  return (next?: NextOptions) =>
    callAt(index + 1, middlewares, meta, {
      path: opts.path,
      ctx: next?.ctx ? { ...(opts.ctx as object), ...next.ctx } : opts.ctx,
      type: opts.type,
      getRawInput: next?.getRawInput ?? opts.getRawInput,
      signal: opts.signal,
      batchIndex: opts.batchIndex,
      input: next && 'input' in next ? next.input : opts.input,
    });
}

async function callAt(index: number, middlewares: Middleware[], meta: unknown, opts: CallOptions): Promise<Result> {
  try {
    const middleware = middlewares[index];
    if (!middleware) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No more middlewares' });
    return await middleware({
      path: opts.path,
      ctx: opts.ctx,
      type: opts.type,
      getRawInput: opts.getRawInput,
      signal: opts.signal,
      batchIndex: opts.batchIndex,
      input: opts.input,
      meta,
      next: nextOf(index, middlewares, meta, opts),
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: middlewareMarker };
  }
}

export type ErrorShape = AppRouter['_def']['_config']['$types']['errorShape'];

/** The error as tRPC would send it, after the router's errorFormatter. */
export function errorShapeOf(
  cause: unknown,
  where: { path: string | undefined; input: unknown; ctx: Context | undefined; type: ProcedureType | 'unknown' },
): { error: TRPCError; shape: ErrorShape } {
  const error = getTRPCErrorFromUnknown(cause);
  const shape = getErrorShape({ config, error, path: where.path, input: where.input, ctx: where.ctx, type: where.type });
  return { error, shape: shape as ErrorShape };
}
