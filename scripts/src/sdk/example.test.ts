import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeMessages } from '@site/contracts';
import { spawnServer, type SpawnedServer } from '@site/server/testing/spawn-server';
import { cliRunner, migratedDataDir } from '../testing/run-cli.ts';

type Operation = { operationId: string; parameters?: { name: string; in: string }[]; requestBody?: unknown };
type Doc = { paths: Record<string, Record<string, Operation>> };

/** The owner of a fresh server (the first account), signed in: a session cookie. */
async function owner(url: string): Promise<string> {
  const res = await fetch(`${url}/trpc/auth.signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'owner', password: 'a long enough secret', confirmPassword: 'a long enough secret' }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function makeToken(url: string, cookie: string, scopes: string[] | null): Promise<string> {
  const res = await fetch(`${url}/trpc/auth.createToken`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'Script', scopes }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { data: { token: string } } }).result.data.token;
}

describe('the sdk example script against the real server', () => {
  let server: SpawnedServer;
  let cookie: string;
  beforeAll(async () => {
    server = await spawnServer({ timeoutMs: 60_000, dataDir: migratedDataDir('site-sdk-example-') });
    cookie = await owner(server.url);
  }, 90_000);
  afterAll(() => server?.stop());

  it('adds a task and lists it with a token of the two todo scopes', async () => {
    const token = await makeToken(server.url, cookie, ['todo:read', 'todo:write']);
    const example = cliRunner(path.join(import.meta.dirname, 'example.ts'), { SITE_URL: server.url, SITE_TOKEN: token });
    const first = await example('Buy', 'milk');
    expect(first).toEqual({ code: 0, out: expect.stringMatching(/^Added #(\d+): Buy milk\n#\1 Active Buy milk\n$/) });
    const second = await example('Water the plants');
    expect(second.code).toBe(0);
    expect(second.out.split('\n').filter((l) => l.startsWith('#'))).toHaveLength(2);
  });

  it("prints the server's refusal and exits 1 outside the token's scopes", async () => {
    const token = await makeToken(server.url, cookie, ['todo:read']);
    const example = cliRunner(path.join(import.meta.dirname, 'example.ts'), { SITE_URL: server.url, SITE_TOKEN: token });
    expect(await example('Eggs')).toEqual({ code: 1, out: `${scopeMessages.missing('todo:write')}\n` });
  });

  it('calls todo.add then todo.list as the OpenAPI document says, without the sdk', async () => {
    const token = await makeToken(server.url, cookie, null);
    const auth = { authorization: `Bearer ${token}` };
    const doc = (await (await fetch(`${server.url}/api/openapi.json`, { headers: auth })).json()) as Doc;
    const find = (id: string) => {
      for (const [p, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) if (op.operationId === id) return { path: p, method, op };
      throw new Error(`${id} is not in the document`);
    };
    const add = find('todo.add');
    expect([add.method, add.path, add.op.requestBody !== undefined]).toEqual(['post', '/trpc/todo.add', true]);
    const added = await fetch(`${server.url}${add.path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ task: 'From the document' }) });
    expect(added.status).toBe(200);
    const list = find('todo.list');
    expect([list.method, list.path]).toEqual(['get', '/trpc/todo.list']);
    const listed = (await (await fetch(`${server.url}${list.path}`, { headers: auth })).json()) as { result: { data: { task: string }[] } };
    expect(listed.result.data.map((t) => t.task)).toContain('From the document');
    // Both answers are as the document's 200 schemas say (JSON Schema 2020-12, as OpenAPI 3.1 has it).
    const ajv = new Ajv2020({ strict: false, validateFormats: false }).addSchema(doc, 'openapi.json');
    const answer = (p: string, method: string) => ajv.compile({ $ref: `openapi.json#/paths/${p.replaceAll('/', '~1')}/${method}/responses/200/content/application~1json/schema` });
    const [addAnswer, listAnswer] = [answer(add.path, 'post'), answer(list.path, 'get')];
    expect(addAnswer(await added.json()), ajv.errorsText(addAnswer.errors)).toBe(true);
    expect(listAnswer(listed), ajv.errorsText(listAnswer.errors)).toBe(true);
    expect(listAnswer({ result: { data: [{ ...listed.result.data[0], task: 7 }] } })).toBe(false);
    // A query with input sends it as ?input=<JSON>.
    const update = find('todo.update');
    expect(update.method).toBe('post');
    const recipe = find('recipes.get');
    expect(recipe.op.parameters?.[0]).toMatchObject({ name: 'input', in: 'query' });
  });
});
