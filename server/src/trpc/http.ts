import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPCError, type ProcedureType } from '@trpc/server';
import { getHTTPStatusCode } from '@trpc/server/http';
import { authMessages } from '@site/contracts';
import type { AppDeps } from '../deps.ts';
import { createContext, type Context } from './context.ts';
import { errorShapeOf, invoke, type ErrorShape } from './invoke.ts';

const MAX_BATCH = 32;
/**
 * Procedures that check a password: a batch carrying more than one of them is refused whole, so one
 * request can never try more than one password (the login limit counts requests' attempts).
 */
const ONE_PER_BATCH = new Set(['auth.login', 'auth.signup', 'auth.passkeyLogin']);

type Answer = { result: { data: unknown } } | { error: ErrorShape };

/**
 * /trpc served by a plain Fastify route, wire-compatible with @trpc/client's httpLink and
 * httpBatchLink (no transformer): GET for queries with ?input=, POST for mutations with a JSON body,
 * `?batch=1` with comma-separated paths and inputs keyed "0", "1", ...; the answer is one envelope
 * (or an array of them for a batch) and the status follows tRPC's rule (one status shared by all
 * answers, else 207). The stock adapter builds a Fetch Request and Response for every call, which
 * costs about ten times the work of the procedure itself here.
 */
export function mountTrpc(app: FastifyInstance, deps: AppDeps): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const type: ProcedureType = req.method === 'GET' ? 'query' : 'mutation';
    const query = req.query as Record<string, string | string[] | undefined>;
    const isBatch = query.batch === '1';
    const rawPath = (req.params as { '*'?: string })['*'] ?? '';
    let ctx: Context | undefined;
    let paths: string[] = [rawPath];
    try {
      let pathText: string;
      try {
        pathText = decodeURIComponent(rawPath);
      } catch {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'The procedure path is not valid' });
      }
      paths = isBatch ? pathText.split(',') : [pathText];
      if (paths.length > MAX_BATCH) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Batch call exceeds maximum size' });
      if (paths.length > 1 && paths.filter((p) => ONE_PER_BATCH.has(p)).length > 1) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: authMessages.oneLoginPerBatch });
      }
      const inputs = readInputs(req, isBatch, paths.length);
      const made = createContext(deps, req, reply);
      ctx = made instanceof Promise ? await made : made;
      const context = ctx;
      // One call is by far the common case (the batch link sends single queries as a batch of one).
      const answers: Answer[] =
        paths.length === 1
          ? [await answer(req, paths[0] ?? '', 0, inputs[0], context, type)]
          : await Promise.all(paths.map((path, index) => answer(req, path, index, inputs[index], context, type)));
      reply.code(statusOf(answers));
      return send(reply, isBatch ? answers : answers[0]);
    } catch (cause) {
      const { error, shape } = errorShapeOf(cause, { path: isBatch ? undefined : paths[0], input: undefined, ctx, type });
      if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error }, 'trpc request failed');
      const body = { error: shape };
      reply.code(getHTTPStatusCode(body));
      return send(reply, body);
    }
  };
  app.route({ method: ['GET', 'POST'], url: '/trpc/*', handler });
}

/** One call's envelope: its result, or its error as tRPC shapes it. */
async function answer(
  req: FastifyRequest,
  path: string,
  index: number,
  input: unknown,
  ctx: Context,
  type: ProcedureType,
): Promise<Answer> {
  try {
    return { result: { data: await invoke(path, ctx, input, { type, batchIndex: index }) } };
  } catch (cause) {
    const { error, shape } = errorShapeOf(cause, { path, input, ctx, type });
    if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error, path }, 'procedure failed');
    return { error: shape };
  }
}

/** tRPC's rule (getHTTPStatusCode): the status all answers share, else 207. */
function statusOf(answers: Answer[]): number {
  let status: number | undefined;
  for (const a of answers) {
    const code = 'error' in a ? a.error.data.httpStatus : 200;
    if (status === undefined) status = code;
    else if (status !== code) return 207;
  }
  return status ?? 200;
}

function send(reply: FastifyReply, body: unknown) {
  // Answers depend on who asks: no cache (browser or shared) may keep them (so no Vary either).
  return reply.header('content-type', 'application/json').header('cache-control', 'no-store').send(JSON.stringify(body));
}

/** Inputs by batch index; a missing entry means the call has no input. */
function readInputs(req: FastifyRequest, isBatch: boolean, count: number): unknown[] {
  let raw: unknown;
  if (req.method === 'GET') {
    const text = (req.query as { input?: unknown }).input;
    if (typeof text === 'string' && text !== '') {
      try {
        raw = JSON.parse(text);
      } catch (cause) {
        throw new TRPCError({ code: 'PARSE_ERROR', message: 'The input is not valid JSON', cause });
      }
    }
  } else {
    raw = req.body;
  }
  if (!isBatch) return [raw];
  if (raw === undefined) return [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: '"input" needs to be an object when doing a batch call' });
  }
  const byIndex = raw as Record<string, unknown>;
  const inputs: unknown[] = new Array<unknown>(count);
  for (let i = 0; i < count; i++) {
    const key = String(i);
    inputs[i] = Object.hasOwn(byIndex, key) ? byIndex[key] : undefined;
  }
  return inputs;
}
