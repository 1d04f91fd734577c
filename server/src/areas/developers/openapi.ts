import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  accessMessages,
  httpRoutes,
  httpScope,
  LEVEL_NAMES,
  legacyApi,
  needsBrowser,
  OPENAPI_EXTENSIONS as X,
  OPENAPI_PATH,
  procedures,
  procedureScope,
  scopeMessages,
  type Access,
  type Conversion,
  type FieldMap,
  type HttpRow,
  type ProcedureAccess,
} from '@site/contracts';
import { findRepoRoot } from '../../config.ts';
import { findProcedure } from '../../trpc/invoke.ts';
import type { OutputSchemas } from './openapi.outputs.ts';

/**
 * The OpenAPI 3.1 document of the site, generated from what the server runs, never written by hand:
 * - every procedure of the permission table (contracts), as it is called today: a query is
 *   `GET /trpc/<name>?input=<JSON>`, a mutation `POST /trpc/<name>` with a JSON body; its input is
 *   the JSON Schema zod makes of the procedure's own input schema; its answer the JSON Schema of its
 *   TypeScript answer type, made at build (openapi.outputs.ts, read from `OUTPUTS_FILE`: procedures
 *   declare no zod output); operationId is its name; its minimum level, scope and whether a browser
 *   is needed are `x-` extensions;
 * - every documented /api path (contracts/src/legacy-api.ts) with its payload and answer fields;
 * - the HTTP routes under /api that are not tRPC (uploads, downloads, this document).
 */
type Schema = Record<string, unknown>;
const COMPONENTS = '#/components/schemas/';
type Operation = Record<string, unknown>;

const envelopeError: Schema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'code', 'data'],
      properties: {
        message: { type: 'string', description: 'A sentence a person can read.' },
        code: { type: 'integer', description: 'JSON-RPC error number (tRPC): -32600 bad request, -32001 unauthorized, -32003 forbidden, ...' },
        data: {
          type: 'object',
          required: ['code', 'httpStatus'],
          properties: {
            code: { type: 'string', examples: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'] },
            httpStatus: { type: 'integer' },
            path: { type: 'string', description: 'The procedure called.' },
            preauth: { type: 'boolean', const: true, description: 'Present when the account is pending (level 0).' },
          },
        },
      },
    },
  },
};

const legacyError: Schema = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' }, preauth: { type: 'boolean', const: true } },
};

const errorResponse = (description: string, schema: string) => ({ description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } });

/** The errors every call of a rule may answer, by status. */
function errorsOf(access: Access, browserOnly: boolean, schema: 'TrpcError' | 'ApiError', withInput: boolean): Record<string, unknown> {
  const errors: Record<string, unknown> = {};
  if (withInput) errors['400'] = errorResponse('The input is not valid: the message names the field.', schema);
  if (access !== 'public') errors['401'] = errorResponse(`Nobody is signed in: "${accessMessages.signInRequired}".`, schema);
  const forbidden = [
    ...(access === 'public' ? [] : [`"${accessMessages.levelTooLow}"`]),
    `a token outside its scopes: "${scopeMessages.missing('<scope>')}"`,
    ...(browserOnly ? [`a token: "${accessMessages.browserOnly}"`] : []),
  ];
  errors['403'] = errorResponse(`Refused: ${forbidden.join('; ')}.`, schema);
  errors['default'] = errorResponse("A refusal of the procedure's own rules (404, 409, 429...) or 500.", schema);
  return errors;
}

function securityOf(access: Access, browserOnly: boolean): Record<string, string[]>[] {
  if (browserOnly) return [{ sessionCookie: [] }];
  const signedIn: Record<string, string[]>[] = [{ bearerToken: [] }, { sessionCookie: [] }];
  return access === 'public' ? [{}, ...signedIn] : signedIn;
}

const levelWords = (access: Access) => (access === 'public' ? 'anyone, signed in or not' : `level ${access} (${LEVEL_NAMES[access]}) and up`);

/** The JSON Schema of a zod schema, as a client sends it (`io: 'input'`); parts JSON cannot say (a date, a custom check) are left open. */
function inputSchema(schema: unknown): Schema {
  const json = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Schema;
  delete json.$schema;
  return json;
}

/** Where server/build.mjs writes the answers' schemas (openapi.outputs.ts), from the repository's root. */
export const OUTPUTS_FILE = path.join('server', 'dist', 'openapi-outputs.json');

/** The answers' schemas the build wrote; the document cannot be made without them. */
export function readOutputSchemas(file = path.join(findRepoRoot(), OUTPUTS_FILE)): OutputSchemas {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: the server's build writes it (npm run build -w server)`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as OutputSchemas;
}

/** A procedure's answer as `{ "result": { "data": <output> } }`; a procedure that answers nothing (null) `{ "result": {} }`. */
function resultEnvelope(output: Schema | null): Schema {
  const result = output === null ? { type: 'object', properties: {}, additionalProperties: false } : { type: 'object', required: ['data'], properties: { data: output }, additionalProperties: false };
  return { type: 'object', required: ['result'], properties: { result }, additionalProperties: false };
}

type ProcedureFacts = { type: 'query' | 'mutation'; input: Schema | null; inputRequired: boolean; output: Schema | null };

function factsOf(path: string, outputs: OutputSchemas): ProcedureFacts {
  const proc = findProcedure(path);
  if (!proc) throw new Error(`The permission table names ${path}, which has no procedure`);
  const def = proc._def as unknown as { type: 'query' | 'mutation'; inputs: unknown[] };
  const schemas = def.inputs.map(inputSchema);
  const input = schemas.length === 0 ? null : schemas.length === 1 ? (schemas[0] ?? null) : { allOf: schemas };
  const inputRequired = def.inputs.some((s) => !(s as z.ZodType).safeParse(undefined).success);
  const output = outputs.procedures[path];
  if (output === undefined) throw new Error(`${OUTPUTS_FILE} has no answer for ${path}: it is older than the procedures (npm run build -w server)`);
  return { type: def.type, input, inputRequired, output };
}

const ruleOf = (rule: ProcedureAccess): { access: Access; alsoOnPort?: number; browserOnly: boolean } =>
  typeof rule === 'object' ? { access: rule.access, ...('alsoOnPort' in rule && rule.alsoOnPort !== undefined ? { alsoOnPort: rule.alsoOnPort } : {}), browserOnly: needsBrowser(rule) } : { access: rule, browserOnly: false };

function procedureOperation(path: string, rule: ProcedureAccess, facts: ProcedureFacts): [method: 'get' | 'post', Operation] {
  const { access, alsoOnPort, browserOnly } = ruleOf(rule);
  const area = path.slice(0, path.indexOf('.'));
  const scope = procedureScope(path, facts.type);
  const how =
    facts.type === 'query'
      ? `A query: \`GET /trpc/${path}${facts.input ? '?input=<JSON, URL-encoded>' : ''}\`.`
      : `A mutation: \`POST /trpc/${path}\`${facts.input ? ' with the input as a JSON body' : ''} (\`content-type: application/json\`).`;
  const who = browserOnly
    ? `For ${levelWords(access)}, from a signed-in browser only: an API token is refused (an account change).`
    : `For ${levelWords(access)}${alsoOnPort ? `, and every member on port ${alsoOnPort}` : ''}; a token needs the scope \`${scope}\`.`;
  const operation: Operation = {
    operationId: path,
    tags: [area],
    summary: path,
    description: `${how} ${who}`,
    security: securityOf(access, browserOnly),
    [X.level]: access,
    [X.scope]: scope,
    [X.kind]: facts.type,
    ...(alsoOnPort ? { [X.alsoOnPort]: alsoOnPort } : {}),
    ...(browserOnly ? { [X.browserOnly]: true } : {}),
    responses: {
      '200': {
        description: facts.output === null ? 'Done; it answers nothing: `{ "result": {} }`.' : 'The answer: `{ "result": { "data": ... } }`, `data` as the schema says.',
        content: { 'application/json': { schema: resultEnvelope(facts.output) } },
      },
      ...errorsOf(access, browserOnly, 'TrpcError', facts.input !== null),
    },
  };
  if (facts.input) {
    if (facts.type === 'query') {
      operation.parameters = [
        { name: 'input', in: 'query', required: facts.inputRequired, description: 'The input, as JSON (URL-encoded).', content: { 'application/json': { schema: facts.input } } },
      ];
    } else {
      operation.requestBody = { required: facts.inputRequired, content: { 'application/json': { schema: facts.input } } };
    }
  }
  return [facts.type === 'query' ? 'get' : 'post', operation];
}

const fieldOf = (source: FieldMap[string]): { field: string; as?: Conversion } => (typeof source === 'string' ? { field: source } : source);

function convertedSchema(schema: Schema | undefined, as: 'int' | 'boolean' | 'text' | undefined): Schema {
  if (as === 'int') return { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?\\d{1,9}$' }] };
  if (as === 'boolean') return { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }] };
  if (as === 'text') return { type: 'string' };
  return schema ?? {};
}

/** A documented /api path: its payload fields (named and typed from the procedure's input) and its answer fields. */
function legacyOperation(url: string, route: { procedure: string; input?: FieldMap; output?: FieldMap }, outputs: OutputSchemas): Operation {
  const rule = procedures[route.procedure as keyof typeof procedures] as ProcedureAccess;
  const { access, browserOnly } = ruleOf(rule);
  const facts = factsOf(route.procedure, outputs);
  const inputFields = ((facts.input?.properties as Record<string, Schema> | undefined) ?? {});
  const operation: Operation = {
    operationId: `POST ${url}`,
    tags: ['api'],
    summary: url,
    description: `The documented path of \`${route.procedure}\`: the payload's fields are renamed into its input and its answer's fields renamed back. For ${levelWords(access)}${browserOnly ? ', from a signed-in browser only' : `; a token needs the scope \`${procedureScope(route.procedure, facts.type)}\``}.`,
    security: securityOf(access, browserOnly),
    [X.procedure]: route.procedure,
    [X.level]: access,
    [X.scope]: procedureScope(route.procedure, facts.type),
    ...(browserOnly ? { [X.browserOnly]: true } : {}),
    responses: {
      '200': {
        description: route.output ? `The answer of ${route.procedure} (each element, when it is a list), with these fields.` : `The answer of ${route.procedure}, as it is.`,
        content: { 'application/json': { schema: route.output ? legacyAnswer(route.output, facts.output ?? {}, outputs) : (facts.output ?? {}) } },
      },
      ...errorsOf(access, browserOnly, 'ApiError', route.input !== undefined),
    },
  };
  if (route.input) {
    const properties: Record<string, Schema> = {};
    for (const [to, source] of Object.entries(route.input)) {
      const { field, as } = fieldOf(source);
      properties[field] = { ...convertedSchema(inputFields[to], as), description: `\`${to}\` of ${route.procedure}` };
    }
    operation.requestBody = { required: false, content: { 'application/json': { schema: { type: 'object', properties } } } };
  }
  return operation;
}

/** The answer of an /api path: the procedure's answer (an object, or a list of them) with its fields renamed and typed as the procedure's. */
function legacyAnswer(output: FieldMap, answer: Schema, outputs: OutputSchemas): Schema {
  const named = (s: Schema): Schema => (typeof s.$ref === 'string' ? (outputs.schemas[s.$ref.slice(COMPONENTS.length)] ?? {}) : s);
  const renamed = (object: Schema): Schema => {
    const fields = (object.properties ?? {}) as Record<string, Schema>;
    const required = new Set((object.required as string[] | undefined) ?? []);
    const properties: Record<string, Schema> = {};
    for (const [to, source] of Object.entries(output)) {
      const { field, as } = fieldOf(source);
      properties[to] = { ...(as === 'text' ? { type: 'string' } : (fields[field] ?? {})), description: `\`${field}\` of the answer` };
    }
    return { type: 'object', properties, required: Object.keys(output).filter((to) => required.has(fieldOf(output[to] as FieldMap[string]).field)), additionalProperties: false };
  };
  const whole = named(answer);
  return whole.type === 'array' ? { type: 'array', items: renamed(named((whole.items ?? {}) as Schema)) } : renamed(whole);
}

/** An HTTP route under /api that is not tRPC (an upload, a download, this document). */
function httpOperation(key: string, row: HttpRow): [method: string, path: string, Operation] {
  const space = key.indexOf(' ');
  const method = key.slice(0, space).toLowerCase();
  const params: string[] = [];
  const path = key
    .slice(space + 1)
    .replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => (params.push(name), `{${name}}`))
    .replace(/\*$/, () => (params.push('path'), '{path}'));
  const scope = row.anyScope ? null : httpScope(key);
  const operation: Operation = {
    operationId: key,
    tags: ['http'],
    summary: key,
    description: `A route that is not tRPC, for ${levelWords(row.access)}${scope ? `; a token needs the scope \`${scope}\`` : row.anyScope ? '; any token may call it' : ''}.${row.multipart ? ' The body is multipart/form-data.' : ''}`,
    security: securityOf(row.access, false),
    [X.level]: row.access,
    ...(scope ? { [X.scope]: scope } : {}),
    ...(params.length > 0 ? { parameters: params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })) } : {}),
    ...(row.multipart ? { requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } } } : {}),
    responses: { '200': { description: 'The answer (a file, or JSON).' }, ...errorsOf(row.access, false, 'ApiError', false) },
  };
  return [method, path, operation];
}

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };

/** Builds the document from the permission table, the procedures the server serves and the answers' schemas the build wrote. */
export function buildOpenApi(outputs: OutputSchemas = readOutputSchemas()): OpenApiDocument {
  const taken = ['TrpcError', 'ApiError'].filter((name) => name in outputs.schemas);
  if (taken.length > 0) throw new Error(`An answer type is named ${taken.join(', ')}, as the document's own error schemas: rename it`);
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const [path, rule] of Object.entries(procedures) as [string, ProcedureAccess][]) {
    const [method, operation] = procedureOperation(path, rule, factsOf(path, outputs));
    paths[`/trpc/${path}`] = { [method]: operation };
    tags.add(path.slice(0, path.indexOf('.')));
  }
  for (const [url, route] of Object.entries(legacyApi) as [string, { procedure: string; input?: FieldMap; output?: FieldMap }][]) {
    paths[url] = { post: legacyOperation(url, route, outputs) };
  }
  for (const [key, row] of Object.entries(httpRoutes) as [string, HttpRow][]) {
    if (!/^[A-Z]+ \/api\//.test(key)) continue;
    const [method, path, operation] = httpOperation(key, row);
    paths[path] = { ...paths[path], [method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Site API',
      version: '1.0.0',
      description: `Every procedure of the site, generated from its permission table, its input schemas and its answer types. Sign in (a session cookie) or send a personal API token as \`Authorization: Bearer site_...\`. The document itself: \`GET ${OPENAPI_PATH}\`.`,
    },
    servers: [{ url: '/' }],
    tags: [...[...tags].map((name) => ({ name })), { name: 'api', description: 'The documented /api paths' }, { name: 'http', description: 'Routes that are not tRPC' }],
    paths,
    components: {
      securitySchemes: {
        bearerToken: { type: 'http', scheme: 'bearer', description: 'A personal API token (Account page, or `npm run user -- token NAME`), with its scopes.' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'A signed-in browser.' },
      },
      schemas: {
        ...outputs.schemas,
        TrpcError: envelopeError,
        ApiError: legacyError,
      },
    },
  };
}

let cached: string | undefined;

/** The document as JSON, made at the first request and kept: the procedures do not change while the server runs. */
export function openApiJson(): string {
  cached ??= JSON.stringify(buildOpenApi());
  return cached;
}
