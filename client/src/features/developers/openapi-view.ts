import { LEVEL_NAMES, type Level } from '@site/contracts/levels';

/** What the reference page reads of the OpenAPI document (server/src/areas/developers/openapi.ts). */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  exclusiveMinimum?: number;
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  $ref?: string;
};

export type Operation = {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; content?: Record<string, { schema: JsonSchema }>; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema: JsonSchema }> }>;
  'x-min-level'?: 'public' | Level;
  'x-scope'?: string;
  'x-browser-only'?: boolean;
  'x-procedure-type'?: 'query' | 'mutation';
  'x-procedure'?: string;
};

export type OpenApiDocument = {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** One operation with where it is. */
export type Entry = { method: string; path: string; op: Operation; area: string };

/** Every operation, grouped by its area (its first tag), areas in the document's order. */
export function entriesByArea(doc: OpenApiDocument): Map<string, Entry[]> {
  const areas = new Map<string, Entry[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const area = op.tags?.[0] ?? 'other';
      const list = areas.get(area) ?? [];
      list.push({ method: method.toUpperCase(), path, op, area });
      areas.set(area, list);
    }
  }
  return areas;
}

export const levelText = (level: Operation['x-min-level']) =>
  level === undefined ? '' : level === 'public' ? 'Public' : `Level ${level} (${LEVEL_NAMES[level]})`;

/** The input schema of an operation: a query's ?input=, a body's JSON; null when it takes none. */
export function inputSchemaOf(op: Operation): JsonSchema | null {
  const param = op.parameters?.find((p) => p.name === 'input' && p.in === 'query');
  return param?.content?.['application/json']?.schema ?? op.requestBody?.content['application/json']?.schema ?? null;
}

const COMPONENTS = '#/components/schemas/';

/** A schema with its named parts (`$ref` to the document's components) written out, to read it in one place; a type that holds itself stays a `$ref`. */
export function withNamedTypes(schema: JsonSchema, doc: OpenApiDocument, inside: readonly string[] = []): JsonSchema {
  const visit = (node: unknown, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => visit(n, stack));
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as JsonSchema;
    const name = typeof $ref === 'string' && $ref.startsWith(COMPONENTS) ? $ref.slice(COMPONENTS.length) : null;
    const named = name !== null && !stack.includes(name) ? doc.components?.schemas?.[name] : undefined;
    const out: Record<string, unknown> = named ? (visit(named, [...stack, name as string]) as Record<string, unknown>) : $ref === undefined ? {} : { $ref };
    for (const [key, value] of Object.entries(rest)) out[key] = visit(value, stack);
    return out;
  };
  return visit(schema, inside) as JsonSchema;
}

/**
 * What an operation answers when it succeeds, as JSON Schema: a procedure's `data` (of
 * `{ "result": { "data": ... } }`), an /api path's body; `nothing` for a procedure that answers
 * `{ "result": {} }`; null when the document gives no JSON answer (a file, a page).
 */
export function answerSchemaOf(entry: Entry, doc: OpenApiDocument): JsonSchema | 'nothing' | null {
  const schema = entry.op.responses?.['200']?.content?.['application/json']?.schema;
  if (!schema) return null;
  if (!entry.path.startsWith('/trpc/')) return withNamedTypes(schema, doc);
  const data = schema.properties?.result?.properties?.data;
  return data ? withNamedTypes(data, doc) : 'nothing';
}

/** A value the schema accepts, as a starting point for "Try it": required fields only, plain values. */
export function sampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const choice = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0];
  if (choice) return sampleOf(choice, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = sampleOf(schema.properties?.[name], depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'string':
      return 'text';
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** True for an operation "Try it" can send as JSON: a procedure, or a documented /api path. */
export const triable = (entry: Entry) => entry.path.startsWith('/trpc/') || (entry.op['x-procedure'] !== undefined && entry.method === 'POST');

/** The request "Try it" sends, and the examples show: a query's input in the URL, anything else as a JSON body. */
export function requestOf(entry: Entry, input: unknown): { url: string; method: string; body: string | undefined } {
  const isQuery = entry.op['x-procedure-type'] === 'query';
  if (isQuery) {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return { url: `${entry.path}${query}`, method: 'GET', body: undefined };
  }
  return { url: entry.path, method: entry.method, body: input === undefined ? undefined : JSON.stringify(input) };
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The same call from curl, Python (requests) and a TypeScript script (the sdk for procedures). */
export function examplesOf(entry: Entry, input: unknown, origin: string): { curl: string; python: string; typescript: string } {
  const isQuery = entry.op['x-procedure-type'] === 'query';
  const hasInput = input !== undefined;
  const json = hasInput ? JSON.stringify(input) : '';
  const url = `${origin}${entry.path}`;
  const auth = '-H "Authorization: Bearer $TOKEN"';
  const curl = isQuery
    ? `curl -s ${auth} ${hasInput ? `-G --data-urlencode ${shellQuote(`input=${json}`)} ` : ''}${url}`
    : `curl -s ${auth} -X ${entry.method}${hasInput ? ` -H 'content-type: application/json' -d ${shellQuote(json)}` : ''} ${url}`;
  const py = hasInput ? JSON.stringify(input, null, 4).replace(/\btrue\b/g, 'True').replace(/\bfalse\b/g, 'False').replace(/\bnull\b/g, 'None') : '';
  const unwrap = entry.path.startsWith('/trpc/') ? '["result"]["data"]' : '';
  const python = [
    'import json, os, requests',
    '',
    `SITE = ${JSON.stringify(origin)}`,
    'headers = {"Authorization": f"Bearer {os.environ[\'SITE_TOKEN\']}"}',
    isQuery
      ? `answer = requests.get(f"{SITE}${entry.path}", headers=headers${hasInput ? `, params={"input": json.dumps(${py})}` : ''})`
      : `answer = requests.${entry.method.toLowerCase()}(f"{SITE}${entry.path}", headers=headers${hasInput ? `, json=${py}` : ''})`,
    'answer.raise_for_status()',
    `print(answer.json()${unwrap})`,
  ].join('\n');
  let typescript: string;
  if (entry.path.startsWith('/trpc/')) {
    const name = entry.path.slice('/trpc/'.length);
    const call = isQuery ? 'query' : 'mutate';
    typescript = [
      "import { createSiteClient } from '@site/sdk';",
      '',
      `const site = createSiteClient({ url: ${JSON.stringify(origin)}, token: process.env.SITE_TOKEN! });`,
      `console.log(await site.${name}.${call}(${hasInput ? JSON.stringify(input) : ''}));`,
    ].join('\n');
  } else {
    typescript = [
      `const answer = await fetch(${JSON.stringify(url)}, {`,
      `  method: ${JSON.stringify(entry.method)},`,
      `  headers: { authorization: \`Bearer \${process.env.SITE_TOKEN}\`${hasInput ? ", 'content-type': 'application/json'" : ''} },`,
      ...(hasInput ? [`  body: JSON.stringify(${json}),`] : []),
      '});',
      'console.log(await answer.json());',
    ].join('\n');
  }
  return { curl, python, typescript };
}
