import { validate, compileErrors } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { accessMessages, legacyApi, needsBrowser, OPENAPI_PATH, procedures, type ProcedureAccess } from '@site/contracts';
import { issueToken } from '../../src/areas/auth/api-tokens.service.ts';
import { buildOpenApi, readOutputSchemas } from '../../src/areas/developers/openapi.ts';
import { cookieFor, createUser, databases, useTestServer } from '../helpers.ts';

type Operation = Record<string, unknown> & {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; content?: Record<string, { schema: Record<string, unknown> }> }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, unknown>;
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe('the OpenAPI document', () => {
  const doc = buildOpenApi() as unknown as Doc;

  it('is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('has every procedure of the permission table, called as /trpc calls it, with its level, scope and errors', () => {
    for (const [path, rule] of Object.entries(procedures) as [string, ProcedureAccess][]) {
      const item = doc.paths[`/trpc/${path}`];
      expect(item, path).toBeDefined();
      const [method, op] = Object.entries(item ?? {})[0] ?? [];
      expect(op?.operationId).toBe(path);
      expect(op?.['x-min-level']).toBe(typeof rule === 'object' ? rule.access : rule);
      expect(method).toBe(op?.['x-procedure-type'] === 'query' ? 'get' : 'post');
      expect(op?.['x-scope']).toBe(`${path.split('.')[0]}:${method === 'get' ? 'read' : 'write'}`);
      expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['200', '403', 'default']));
      if (needsBrowser(rule)) {
        // Marked, and offered to a signed-in browser only.
        expect([op?.['x-browser-only'], op?.security]).toEqual([true, [{ sessionCookie: [] }]]);
      } else {
        expect(op?.['x-browser-only']).toBeUndefined();
        expect(op?.security).toContainEqual({ bearerToken: [] });
      }
    }
    const procedureCount = Object.keys(doc.paths).filter((p) => p.startsWith('/trpc/')).length;
    expect(procedureCount).toBe(Object.keys(procedures).length);
  });

  it('gives inputs as JSON Schema from the zod schemas: a query its ?input=, a mutation its body', () => {
    const add = doc.paths['/trpc/todo.add']?.post;
    expect(add?.requestBody?.content['application/json']?.schema).toMatchObject({ type: 'object', properties: { task: { type: 'string' } }, required: ['task'] });
    const get = doc.paths['/trpc/recipes.get']?.get;
    expect(get?.parameters?.[0]).toMatchObject({ name: 'input', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } });
    expect(doc.paths['/trpc/todo.list']?.get?.parameters).toBeUndefined();
  });

  it("gives every procedure's answer as JSON Schema, made from its TypeScript answer type", () => {
    type Answer = { properties: { result: { properties: { data?: Record<string, unknown> }; additionalProperties: boolean } } };
    const answer = (path: string) => Object.values(doc.paths[path] ?? {})[0]?.responses['200'] as { content: Record<string, { schema: Answer }> } | undefined;
    for (const path of Object.keys(procedures)) {
      expect(answer(`/trpc/${path}`)?.content['application/json']?.schema.properties.result.additionalProperties, path).toBe(false);
    }
    const data = (path: string) => answer(path)?.content['application/json']?.schema.properties.result.properties.data;
    // Closed objects, nulls as a type of their own, a union of literals as an enum, descriptions from the JSDoc.
    expect(data('/trpc/todo.list')).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'number' }, task: { type: 'string' }, status: { type: 'string', enum: ['Abandoned', 'Active', 'Completed', 'Inactive'] } },
        required: ['id', 'status', 'task'],
        additionalProperties: false,
      },
    });
    expect(data('/trpc/admin.resetLink')).toMatchObject({ properties: { url: { type: ['null', 'string'] }, expiresAt: { type: 'string' } } });
    // A named type is a component, shared by the procedures that answer it.
    expect(data('/trpc/house.add')).toEqual({ $ref: '#/components/schemas/HouseChangeResult' });
    expect((doc as unknown as { components: { schemas: Record<string, { description?: string }> } }).components.schemas.HouseChangeResult?.description).toMatch(/^A house write's answer/);
    // A procedure that answers nothing: `{ "result": {} }`.
    expect(data('/trpc/tags.add')).toBeUndefined();
    // An /api path answers the procedure's fields, renamed and typed.
    const legacy = doc.paths['/api/todo/get']?.post?.responses['200'] as { content: Record<string, { schema: unknown }> };
    expect(legacy.content['application/json']?.schema).toMatchObject({ type: 'array', items: { properties: { id: { type: 'number' }, task: { type: 'string' } }, required: ['id', 'task', 'status'] } });
  });

  it("cannot be made without the answers' schemas the build writes, nor from an older build", () => {
    expect(() => readOutputSchemas('/nowhere/openapi-outputs.json')).toThrow('/nowhere/openapi-outputs.json is missing: the server\'s build writes it (npm run build -w server)');
    const outputs = readOutputSchemas();
    const { 'todo.add': _added, ...older } = outputs.procedures;
    expect(() => buildOpenApi({ ...outputs, procedures: older })).toThrow('has no answer for todo.add: it is older than the procedures (npm run build -w server)');
  });

  it('leaves no answer untyped (an `any` would be `{}`), but the free values of a JSON-LD export', () => {
    const untyped: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (node === null || typeof node !== 'object') return;
      if (Object.keys(node).every((k) => k === 'description')) untyped.push(where);
      for (const [key, value] of Object.entries(node)) {
        if (key === 'properties') for (const [field, schema] of Object.entries(value as object)) walk(schema, `${where}.${field}`);
        else walk(value, `${where}/${key}`);
      }
    };
    const { components } = doc as unknown as { components: { schemas: Record<string, unknown> } };
    for (const path of Object.keys(procedures)) walk(Object.values(doc.paths[`/trpc/${path}`] ?? {})[0]?.responses['200'], path);
    for (const [name, schema] of Object.entries(components.schemas)) walk(schema, name);
    expect(untyped).toEqual(['recipes.exportJsonLd/content/application/json/schema.result.data/additionalProperties']);
  });

  it('has every documented /api path with its payload fields', () => {
    for (const [url, route] of Object.entries(legacyApi)) {
      const op = doc.paths[url]?.post;
      expect(op?.['x-procedure'], url).toBe(route.procedure);
      const fields = Object.values('input' in route ? route.input : {}).map((f) => (typeof f === 'string' ? f : f.field));
      expect(Object.keys(op?.requestBody?.content['application/json']?.schema.properties ?? {}), url).toEqual(fields);
    }
    expect(Object.keys(doc.paths['/api/todo/update']?.post?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual(['id', 'task', 'status']);
    expect(doc.paths[OPENAPI_PATH]?.get?.operationId).toBe(`GET ${OPENAPI_PATH}`);
  });
});

describe.each(databases)('GET /api/openapi.json (%s)', (kind) => {
  const s = useTestServer(kind);

  it('answers members and their tokens of any scope, 401 to anyone else', async () => {
    const anonymous = await s.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect([anonymous.statusCode, anonymous.json().message]).toEqual([401, accessMessages.signInRequired]);
    const pending = await s.app.inject({ method: 'GET', url: OPENAPI_PATH, headers: { cookie: await cookieFor(s.deps, 0) } });
    expect(pending.statusCode).toBe(403);
    const member = await s.app.inject({ method: 'GET', url: OPENAPI_PATH, headers: { cookie: await cookieFor(s.deps, 1) } });
    expect([member.statusCode, member.headers['content-type'], member.json().openapi]).toEqual([200, 'application/json; charset=utf-8', '3.1.0']);
    const user = await createUser(s.deps, 'script', 1);
    const { token } = await issueToken(s.deps, user.id, 'Script', ['todo:read']);
    const viaToken = await s.app.inject({ method: 'GET', url: OPENAPI_PATH, headers: { authorization: `Bearer ${token}` } });
    expect(viaToken.statusCode).toBe(200);
    expect(viaToken.body).toBe(member.body);
  });

  it('describes the error envelope the server really gives', async () => {
    const doc = buildOpenApi() as unknown as Doc & { components: { schemas: Record<string, { properties: Record<string, { properties?: Record<string, unknown> }> }> } };
    const user = await createUser(s.deps, 'script', 1);
    const { token } = await issueToken(s.deps, user.id, 'Script', null);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const bad = await s.app.inject({ method: 'POST', url: '/trpc/todo.add', headers, payload: { task: ' ' } });
    const error = bad.json().error;
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(error).sort()).toEqual(Object.keys(doc.components.schemas.TrpcError?.properties.error?.properties ?? {}).sort());
    expect(error.data).toEqual({ code: 'BAD_REQUEST', httpStatus: 400, path: 'todo.add' });
    expect(typeof error.code).toBe('number');
  });
});
