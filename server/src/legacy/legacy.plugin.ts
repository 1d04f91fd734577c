import type { FastifyInstance } from 'fastify';
import { legacyApi, type Conversion, type FieldMap, type FieldSource, type LegacyErrorBody } from '@site/contracts';
import type { AppDeps } from '../deps.ts';
import { createContext, type Context } from '../trpc/context.ts';
import { errorShapeOf, findProcedure, invoke } from '../trpc/invoke.ts';

const source = (s: FieldSource): { field: string; as?: Conversion } => (typeof s === 'string' ? { field: s } : s);

function convert(value: unknown, as: Conversion | undefined): unknown {
  switch (as) {
    case 'int':
      if (typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim())) return Number(value.trim());
      return value;
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      return value;
    case 'text':
      return typeof value === 'string' || value === null || value === undefined ? value : String(value);
    default:
      return value;
  }
}

/**
 * Builds the procedure input from the legacy payload: to-field <- legacy field. Old clients send
 * null for a value they do not have: for the fields in `nullMeansAbsent` (optional ones that refuse
 * null) a null is left out, as if absent; anywhere else it reaches the procedure, whose validation
 * refuses it naming the field.
 */
export function mapInput(map: FieldMap, payload: Record<string, unknown>, nullMeansAbsent: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [to, from] of Object.entries(map)) {
    const { field, as } = source(from);
    if (!Object.hasOwn(payload, field)) continue;
    const value = payload[field];
    if (value === null && nullMeansAbsent.has(to)) continue;
    input[to] = convert(value, as);
  }
  return input;
}

type SchemaLike = {
  safeParse?: (value: unknown) => { success: boolean };
  shape?: Record<string, SchemaLike>;
  def?: { type?: string; in?: SchemaLike; innerType?: SchemaLike };
};

/** The fields of a procedure's input object, through the wrappers around it (optional, transform). */
function inputFields(schema: SchemaLike | undefined): Record<string, SchemaLike> {
  for (let s = schema, depth = 0; s && depth < 8; depth++) {
    if (s.shape && typeof s.shape === 'object') return s.shape;
    s = s.def?.type === 'pipe' ? s.def.in : s.def?.innerType;
  }
  return {};
}

function accepts(schema: SchemaLike, value: unknown): boolean {
  try {
    return schema.safeParse?.(value).success ?? true;
  } catch {
    return false;
  }
}

/** The input fields of a procedure that may be left out but do not take null: there null means absent. */
export function nullMeansAbsentFields(procedure: string): Set<string> {
  const inputs = (findProcedure(procedure)?._def as { inputs?: SchemaLike[] } | undefined)?.inputs ?? [];
  const fields = inputFields(inputs[0]);
  return new Set(Object.keys(fields).filter((name) => !accepts(fields[name]!, null) && accepts(fields[name]!, undefined)));
}

/** Builds the legacy response from the procedure output: legacy field <- output field. */
export function mapOutput(map: FieldMap | undefined, output: unknown): unknown {
  if (!map) return output;
  if (Array.isArray(output)) return output.map((item) => mapOutput(map, item));
  if (typeof output !== 'object' || output === null) return output;
  const record = output as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const [to, from] of Object.entries(map)) {
    const { field, as } = source(from);
    body[to] = convert(record[field], as);
  }
  return body;
}

/**
 * The documented /api/* paths. Each one is a row of contracts/src/legacy-api.ts: the payload is
 * renamed into the procedure's input, the same procedure the client reaches over /trpc runs, and
 * its output is renamed back. Errors answer `{ message, preauth? }` with the procedure's status.
 */
export function mountLegacyApi(app: FastifyInstance, deps: AppDeps): void {
  for (const [url, route] of Object.entries(legacyApi)) {
    const inputMap: FieldMap | undefined = 'input' in route ? route.input : undefined;
    const outputMap: FieldMap | undefined = 'output' in route ? route.output : undefined;
    const nullMeansAbsent = nullMeansAbsentFields(route.procedure);
    app.post(url, async (req, reply) => {
      // Answers depend on who asks: no cache (browser or shared) may keep them.
      reply.header('cache-control', 'no-store');
      const body = req.body ?? {};
      if (typeof body !== 'object' || Array.isArray(body)) {
        const answer: LegacyErrorBody = { message: 'The request body must be a JSON object' };
        return reply.code(400).send(answer);
      }
      const input = inputMap ? mapInput(inputMap, body as Record<string, unknown>, nullMeansAbsent) : undefined;
      let ctx: Context | undefined;
      try {
        const made = createContext(deps, req, reply);
        ctx = made instanceof Promise ? await made : made;
        const output = await invoke(route.procedure, ctx, input);
        return reply.send(mapOutput(outputMap, output));
      } catch (cause) {
        const { error, shape } = errorShapeOf(cause, { path: route.procedure, input, ctx, type: 'unknown' });
        if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error, url }, 'legacy call failed');
        const answer: LegacyErrorBody = { message: shape.message };
        if (shape.data.preauth) answer.preauth = true;
        return reply.code(shape.data.httpStatus).send(answer);
      }
    });
  }
}
