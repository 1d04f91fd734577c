import {
  callTRPCProcedure,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  TRPCError,
  type AnyProcedure,
  type ProcedureType,
} from '@trpc/server';
import type { Context } from './context.ts';
import { appRouter, type AppRouter } from './root.ts';

const table = appRouter._def.procedures as unknown as Record<string, AnyProcedure | undefined>;
const config = appRouter._def._config;

export function findProcedure(path: string): AnyProcedure | undefined {
  return Object.hasOwn(table, path) ? table[path] : undefined;
}

/**
 * Runs one procedure exactly as tRPC's own handlers do (middlewares, input parsing, output), through
 * tRPC's public callTRPCProcedure, without the per-request Request/Response objects of the stock
 * adapter. `type` is what the HTTP method allows; undefined accepts the procedure's own type (the
 * /api paths are all POST).
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
  return callTRPCProcedure({
    router: appRouter,
    path,
    ctx,
    type,
    getRawInput: input === undefined ? noRawInput : () => Promise.resolve(input),
    signal: undefined,
    batchIndex: opts.batchIndex ?? 0,
  });
}

const noRawInput = () => Promise.resolve(undefined);

export type ErrorShape = AppRouter['_def']['_config']['$types']['errorShape'];

/** The error as tRPC would send it, after the router's errorFormatter. */
export function errorShapeOf(
  cause: unknown,
  where: { path: string | undefined; input: unknown; ctx: Context | undefined; type: ProcedureType | 'unknown' },
): { error: TRPCError; shape: ErrorShape } {
  const error = getTRPCErrorFromUnknown(cause);
  const shape = getTRPCErrorShape({ config, error, path: where.path, input: where.input, ctx: where.ctx, type: where.type });
  return { error, shape: shape as ErrorShape };
}
