import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { JsonSchemaGenerator, getDefaultArgs, type Definition } from 'typescript-json-schema';

/**
 * The output half of the OpenAPI document, made at build time (server/build.mjs) from the TypeScript
 * types of the procedures' answers, never written by hand: no procedure declares a zod `.output()`,
 * their answers are the handlers' inferred types. The source is `inferRouterOutputs<AppRouter>`, the
 * type tRPC's own client sees: each answer as JSON carries it (tRPC's `Serialize`: a Date becomes its
 * ISO string, an `undefined` property is left out, so optional), which is what a caller receives.
 * typescript-json-schema turns it into JSON Schema (JSDoc comments become descriptions, `T | null`
 * becomes `["null", T]`, a union of literals an `enum`), then this file moves it into the document's
 * dialect: named types into `components/schemas`, anonymous ones inlined, tuples as `prefixItems`.
 *
 * It needs the TypeScript compiler, so it runs at build, not in the server: the server reads the file
 * this writes (`server/dist/openapi-outputs.json`, see `OUTPUTS_FILE` in openapi.ts).
 */
export type Schema = Record<string, unknown>;
export type OutputSchemas = {
  /** Each procedure's answer (the `data` of `{ "result": { "data": ... } }`), by path; null for none (`void`: `{ "result": {} }`). */
  procedures: Record<string, Schema | null>;
  /** The named types the answers share, for `#/components/schemas/<name>`. */
  schemas: Record<string, Schema>;
};

/** The entry the compiler reads: not a file of the server (an area never imports the router), only of this build step. */
const ENTRY_NAME = '__openapi_outputs__.ts';
const ENTRY_TEXT = `import type { inferProcedureOutput, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './src/router.ts';
export type Outputs = inferRouterOutputs<AppRouter>;
type Procedures = AppRouter['_def']['record'];
export type Returned = { [A in keyof Procedures]: { [P in keyof Procedures[A]]: inferProcedureOutput<Procedures[A][P]> } };
`;

/** A component name OpenAPI allows and a reader can read: a named type's own name. */
const NAMED = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DEFINITIONS = '#/definitions/';
const COMPONENTS = '#/components/schemas/';

function compile(serverDir: string): { checker: ts.TypeChecker; entry: ts.SourceFile } {
  const configFile = path.join(serverDir, 'tsconfig.json');
  const config = ts.readConfigFile(configFile, ts.sys.readFile.bind(ts.sys));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, serverDir);
  const entryPath = path.join(serverDir, ENTRY_NAME);
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, language, ...rest) => (path.resolve(name) === entryPath ? ts.createSourceFile(name, ENTRY_TEXT, language, true) : getSourceFile(name, language, ...rest));
  host.fileExists = (name) => path.resolve(name) === entryPath || fileExists(name);
  const program = ts.createProgram({ rootNames: [entryPath], options, host });
  const entry = program.getSourceFile(entryPath);
  if (!entry) throw new Error('The compiler did not read the outputs entry');
  // The entry itself must check (a renamed router or tRPC type); `npm run typecheck` checks the rest.
  const errors = program.getSemanticDiagnostics(entry);
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, host));
  return { checker: program.getTypeChecker(), entry };
}

/**
 * `inferRouterOutputs<AppRouter>` as typescript-json-schema makes it (one object, area -> procedure ->
 * answer), and which answers are nothing (`void`: typescript-json-schema leaves such a property out).
 */
function rawSchema(serverDir: string): { raw: Definition; answersNothing: (area: string, procedure: string) => boolean } {
  const { checker, entry } = compile(serverDir);
  const alias = entry.statements.find(ts.isTypeAliasDeclaration);
  const symbol = alias && checker.getSymbolAtLocation(alias.name);
  if (!alias || !symbol) throw new Error('The outputs entry declares no Outputs type');
  const type = checker.getTypeAtLocation(alias);
  // Only the one symbol: buildGenerator would visit every declaration of every file the program reads (seconds).
  const args = { ...getDefaultArgs(), required: true, strictNullChecks: true, ref: true, aliasRef: false, ignoreErrors: true };
  const generator = new JsonSchemaGenerator([{ name: 'Outputs', typeName: 'Outputs', fullyQualifiedName: 'Outputs', symbol }], { Outputs: type }, { Outputs: symbol }, {}, checker, args);
  // typescript-json-schema reads an index signature from its declaration only, so a mapped
  // `Record<string, T>` (tRPC's Serialize makes every record one) would lose its values: read them
  // from the checker instead. Its methods are private in its types, not at run time.
  const internals = generator as unknown as { getClassDefinition(t: ts.Type, d: Definition): Definition; getTypeDefinition(t: ts.Type): Definition };
  const classDefinition = internals.getClassDefinition.bind(generator);
  internals.getClassDefinition = (objectType, definition) => {
    const out = classDefinition(objectType, definition);
    const index = checker.getIndexInfosOfType(objectType).find((info) => (info.keyType.flags & (ts.TypeFlags.String | ts.TypeFlags.Number)) !== 0);
    if (index && out.additionalProperties === undefined) out.additionalProperties = internals.getTypeDefinition.call(generator, index.type);
    return out;
  };
  const propertyType = (of: ts.Type, ...names: string[]): ts.Type | undefined => {
    const [name, ...rest] = names;
    if (name === undefined) return of;
    const property = checker.getPropertyOfType(of, name);
    return property && propertyType(checker.getTypeOfSymbol(property), ...rest);
  };
  const returnedAlias = entry.statements.filter(ts.isTypeAliasDeclaration).find((a) => a.name.text === 'Returned');
  if (!returnedAlias) throw new Error('The outputs entry declares no Returned type');
  const returned = checker.getTypeAtLocation(returnedAlias);
  // tRPC types a handler's `void` as `never` on the client; the wire has `{ "result": {} }`. Any other
  // `never` is an answer JSON cannot carry (a bigint, a function): the build stops on it.
  const answersNothing = (area: string, procedure: string): boolean => {
    const serialized = propertyType(type, area, procedure);
    if (!serialized || (serialized.flags & ts.TypeFlags.Never) === 0) return false;
    const handler = propertyType(returned, area, procedure);
    if (handler && (handler.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) !== 0) return true;
    throw new Error(`${area}.${procedure} answers ${handler ? checker.typeToString(handler) : 'a type'} that JSON cannot carry`);
  };
  // It warns of each such literal it cannot evaluate (`{ ok: true as const }`): noise here, `default` is dropped.
  const warn = console.warn;
  console.warn = (...parts: unknown[]) => (String(parts[0]).startsWith('initializer is expression') ? undefined : warn(...parts));
  try {
    return { raw: generator.getSchemaForSymbol('Outputs'), answersNothing };
  } finally {
    console.warn = warn;
  }
}

const refName = (ref: string): string => decodeURIComponent(ref.slice(DEFINITIONS.length));

type Context = { definitions: Record<string, Definition>; used: Map<string, string> };

/**
 * Moves a draft-07 schema of typescript-json-schema into OpenAPI 3.1's JSON Schema (2020-12): refs to
 * named types point into components, anonymous types are inlined (a recursive one keeps a made-up
 * name), tuples use `prefixItems`, an intersection of plain objects becomes one object. `used`
 * collects the named types reached.
 */
function convert(node: unknown, context: Context, inlining: readonly string[], inlineNamed = false): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, context, inlining));
  if (node === null || typeof node !== 'object') return node;
  const source = node as Schema;
  if (typeof source.$ref === 'string' && source.$ref.startsWith(DEFINITIONS)) {
    const name = refName(source.$ref);
    const { $ref: _ref, ...siblings } = source;
    const target = context.definitions[name];
    if (!target) throw new Error(`typescript-json-schema referred to ${name}, which it did not define`);
    const rest = convert(siblings, context, inlining) as Schema;
    if (inlining.includes(name) || (NAMED.test(name) && !inlineNamed)) {
      const used = context.used;
      used.set(name, used.get(name) ?? (NAMED.test(name) ? name : `Recursive${used.size}`));
      return { $ref: `${COMPONENTS}${used.get(name)}`, ...rest };
    }
    return { ...(convert(target, context, [...inlining, name]) as Schema), ...rest };
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    // `default`: typescript-json-schema takes a handler's object literal (`{ ok: true }`) for one; an answer has none.
    if (key === '$schema' || key === 'definitions' || key === 'default') continue;
    if (key === 'items' && Array.isArray(value)) out.prefixItems = convert(value, context, inlining);
    else if (key === 'additionalItems') out.items = convert(value, context, inlining);
    else if (key === 'allOf' && Array.isArray(value)) Object.assign(out, intersection(value.map((v) => convert(v, context, inlining, true) as Schema)));
    else out[key] = convert(value, context, inlining);
  }
  return out;
}

const isPlainObject = (s: Schema): boolean => s.type === 'object' && !('additionalProperties' in s) && !['anyOf', 'oneOf', 'allOf', '$ref'].some((k) => k in s);

/** `A & B` of plain objects as one object (so it can be closed below); anything else stays an `allOf`. */
function intersection(members: Schema[]): Schema {
  if (!members.every(isPlainObject)) return { allOf: members };
  const properties = Object.assign({}, ...members.map((m) => m.properties ?? {})) as Schema;
  const required = [...new Set(members.flatMap((m) => (m.required as string[] | undefined) ?? []))].sort();
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * Says that an object has no other fields (`additionalProperties: false`) where the type says so: an
 * object type with fields and without an index signature, outside an `allOf` (whose members each
 * see only part); an object of unknown fields (`object`) stays open.
 * The answers are exactly these fields, so a test finds a field that is not in the types.
 */
function close(node: unknown, inAllOf = false): unknown {
  if (Array.isArray(node)) return node.map((n) => close(n));
  if (node === null || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node as Schema)) out[key] = key === 'allOf' && Array.isArray(value) ? value.map((v) => close(v, true)) : key === 'properties' ? mapValues(value as Schema, (v) => close(v)) : close(value);
  if (out.type === 'object' && 'properties' in out && !inAllOf && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

const mapValues = (o: Schema, f: (v: unknown) => unknown): Schema => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

/** The answers' schemas of the procedures named in `paths` ("area.name"), from the server in `serverDir`. */
export function generateOutputSchemas(serverDir: string, paths: readonly string[]): OutputSchemas {
  const { raw, answersNothing } = rawSchema(serverDir);
  const definitions = (raw.definitions ?? {}) as Record<string, Definition>;
  const resolve = (schema: unknown): Schema => {
    const s = schema as Schema | undefined;
    return s && typeof s.$ref === 'string' ? resolve(definitions[refName(s.$ref)]) : (s ?? {});
  };
  const used = new Map<string, string>();
  const context: Context = { definitions, used };
  const procedures: Record<string, Schema | null> = {};
  for (const name of paths) {
    const [area = '', procedure = ''] = name.split('.');
    const areaSchema = resolve((raw.properties as Record<string, unknown> | undefined)?.[area]);
    const answer = (areaSchema.properties as Record<string, unknown> | undefined)?.[procedure];
    if (answer === undefined && answersNothing(area, procedure)) procedures[name] = null;
    else if (answer === undefined) throw new Error(`The router's output types have no ${name}`);
    else procedures[name] = close(convert(answer, context, [])) as Schema;
  }
  // Named types reached only through other named types: convert until nothing new is reached.
  const schemas: Record<string, Schema> = {};
  for (let done = 0; done < used.size; ) {
    done = used.size;
    for (const [source, target] of [...used]) schemas[target] ??= close(convert(definitions[source], context, NAMED.test(source) ? [] : [source])) as Schema;
  }
  return { procedures, schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) };
}

/** Writes `generateOutputSchemas` to `file` (the build's step); answers how many procedures and named types it wrote. */
export function writeOutputSchemas(serverDir: string, paths: readonly string[], file: string): { procedures: number; schemas: number } {
  const outputs = generateOutputSchemas(serverDir, paths);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(outputs)}\n`);
  return { procedures: Object.keys(outputs.procedures).length, schemas: Object.keys(outputs.schemas).length };
}
