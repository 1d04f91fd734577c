import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { issueToken } from '../../src/areas/auth/api-tokens.service.ts';
import { buildOpenApi } from '../../src/areas/developers/openapi.ts';
import { insertKitchenUnits } from '../../src/areas/recipes/recipes.migrations.ts';
import { createUser, databases, emptyMediaFolder, useTestServer } from '../helpers.ts';
import { jpegWithExif, tempMediaDir, uploadVia } from '../pictures/pictures.fixtures.ts';

type Operation = { operationId: string; 'x-procedure-type'?: string };
type Doc = { paths: Record<string, Record<string, Operation>> };

/** A JSON pointer to a 200 answer's schema in the document (`/` in a path is `~1`). */
const answerPointer = (path: string, method: string) => `openapi.json#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/responses/200/content/application~1json/schema`;

/**
 * Every answer of the document is checked against what the server really answers: real procedures
 * (at least 15, of many areas) called through the HTTP server as the document says, with a token,
 * each whole answer validated with ajv against the operation's 200 schema (JSON Schema 2020-12, as
 * OpenAPI 3.1). The schemas close their objects (`additionalProperties: false`), so a field added,
 * renamed, retyped or made null without the types saying so fails here.
 */
describe('the answer schemas, validated with ajv', () => {
  const doc = buildOpenApi() as unknown as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, 'openapi.json');
  const validators = new Map<string, ValidateFunction>();
  /** The validator of a procedure's (or /api path's) 200 answer, and how the document says to call it. */
  const answerOf = (path: string) => {
    const [method, op] = Object.entries(doc.paths[path] ?? {})[0] ?? [];
    if (!method || !op) throw new Error(`${path} is not in the document`);
    const validate = validators.get(path) ?? ajv.compile({ $ref: answerPointer(path, method) });
    validators.set(path, validate);
    return { method, validate };
  };

  it('fails an answer that drifted from its type: a field added, a field of another type, a null, a field missing', () => {
    const { validate } = answerOf('/trpc/todo.list');
    const good = { result: { data: [{ id: 1, task: 'Milk', status: 'Active' }] } };
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true);
    const drifts = [
      { result: { data: [{ id: 1, task: 'Milk', status: 'Active', extra: true }] } },
      { result: { data: [{ id: '1', task: 'Milk', status: 'Active' }] } },
      { result: { data: [{ id: 1, task: null, status: 'Active' }] } },
      { result: { data: [{ id: 1, task: 'Milk', status: 'Gone' }] } },
      { result: { data: [{ id: 1, status: 'Active' }] } },
      { result: { data: { id: 1, task: 'Milk', status: 'Active' } } },
    ];
    expect(drifts.map((d) => validate(d))).toEqual(drifts.map(() => false));
    // A procedure that answers nothing answers `{ "result": {} }`.
    const nothing = answerOf('/trpc/tags.add').validate;
    expect([nothing({ result: {} }), nothing({ result: { data: 1 } })]).toEqual([true, false]);
  });

  describe.each(databases)('against the server (%s)', (kind) => {
    const mediaDir = tempMediaDir();
    const s = useTestServer(kind, { MEDIA_DIR: mediaDir });
    beforeEach(() => emptyMediaFolder(s.deps, 'pictures'));
    afterEach(() => drainJobs(s.deps));
    const checked = new Set<string>();
    afterAll(() => {
      // The spread this file promises: at least 15 procedures, of at least 10 areas.
      const procedures = [...checked].filter((p) => p.startsWith('/trpc/'));
      expect(procedures.length).toBeGreaterThanOrEqual(15);
      expect(new Set(procedures.map((p) => p.split(/[/.]/)[2])).size).toBeGreaterThanOrEqual(10);
    });

    /** Calls a procedure as the document says (a query `GET ?input=`, a mutation `POST` with a JSON body), checks its answer against the document, and gives its data. */
    async function call<T = unknown>(headers: Record<string, string>, name: string, input?: unknown): Promise<T> {
      const path = `/trpc/${name}`;
      const { method, validate } = answerOf(path);
      const res =
        method === 'get'
          ? await s.app.inject({ method: 'GET', url: input === undefined ? path : `${path}?input=${encodeURIComponent(JSON.stringify(input))}`, headers })
          : await s.app.inject({ method: 'POST', url: path, headers: { ...headers, 'content-type': 'application/json' }, payload: input === undefined ? '' : JSON.stringify(input) });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      const body = res.json<{ result: { data: T } }>();
      expect(validate(body), `${name} answered ${res.body}\nwhich its schema refuses: ${ajv.errorsText(validate.errors)}`).toBe(true);
      checked.add(path);
      return body.result.data;
    }

    it('answers as the document says, procedure by procedure', async () => {
      const owner = await createUser(s.deps, 'owner', 3);
      const { token } = await issueToken(s.deps, owner.id, 'Script', null);
      const bearer = { authorization: `Bearer ${token}` };
      const { token: session } = await s.deps.sessions.create(owner.id);
      const browser = { cookie: `sid=${session}` };

      // TODO list
      const task = await call<{ id: number }>(bearer, 'todo.add', { task: 'Milk' });
      await call(bearer, 'todo.update', { id: task.id, status: 'Completed' });
      await call(bearer, 'todo.add', { task: 'Bread' });
      expect(await call<unknown[]>(bearer, 'todo.list')).toHaveLength(2);

      // House (a shopping list), with its nulls
      const item = await call<{ id: number }>(bearer, 'house.add', { task: 'Eggs', type: 'To Get', quantity: '12' });
      await call(bearer, 'house.add', { task: 'Fix the tap', type: 'To Do', repeatDays: 7 });
      await call(bearer, 'house.complete', { id: item.id });
      expect(await call<unknown[]>(bearer, 'house.list')).toHaveLength(2);

      // Recipes (the unit dictionary, as a migrated database has it)
      await insertKitchenUnits(s.db);
      const recipe = await call<{ recipe_id: number }>(bearer, 'recipes.create', {
        title: 'Pancakes',
        servings: 4,
        steps: [{ instructions: 'Mix and fry.', ingredients: [{ name: 'flour', quantity: 2, unit_abbreviation: 'cup' }, { name: 'egg', plural_name: 'eggs', quantity: 2 }] }],
      });
      await call(bearer, 'recipes.get', { recipeId: recipe.recipe_id });
      await call(bearer, 'recipes.list');
      await call(bearer, 'recipes.units');
      await call(bearer, 'recipes.settings');

      // Pictures: one uploaded through its route, then the gallery, its social side, tags, search, albums
      const uploaded = await uploadVia(s.app, browser.cookie, { name: 'holiday.jpg', data: await jpegWithExif('2021:07:15 10:20:30') }, { caption: 'Holiday at the sea', date: '' });
      expect(uploaded.statusCode).toBe(200);
      const pictureId = uploaded.json<{ id: number }>().id;
      await drainJobs(s.deps);
      const page = { type: 'month', index: 0 };
      await call(bearer, 'pictures.page', page);
      await call(bearer, 'pictures.pageInfo', page);
      await call(bearer, 'pictures.get', { ...page, pic: 0 });
      await call(bearer, 'pictures.byIds', { ids: [pictureId] });
      await call(bearer, 'pictures.heart', { id: pictureId, on: true });
      await call(bearer, 'pictures.comment', { id: pictureId, text: 'Lovely' });
      await call(bearer, 'pictures.social', { id: pictureId });
      await call(bearer, 'pictures.search', { q: 'sea' });
      await call(bearer, 'pictures.suggest', { q: 'se' });
      await call(bearer, 'pictures.onThisDay');
      await call(bearer, 'pictures.map');
      await call(bearer, 'pictures.pendingCount');
      await call(bearer, 'tags.add', { pictureId, tag: 'beach' });
      await call(bearer, 'tags.list', { pictureId });
      const album = await call<{ id: number }>(bearer, 'albums.create', { name: 'Summer', private: false });
      await call(bearer, 'albums.addPictures', { albumId: album.id, pictureIds: [pictureId] });
      await call(bearer, 'albums.get', { id: album.id });
      await call(bearer, 'albums.list');

      // People (face recognition off on the test server: its status and an empty list)
      await call(bearer, 'people.status');
      await call(bearer, 'people.list', {});

      // Chores, the meal plan, climbing passes, keys
      await call(bearer, 'chores.create', { name: 'Bins', every: { days: 7 }, who: { anyone: true }, points: 2 });
      await call(bearer, 'chores.list');
      await call(bearer, 'plan.week', { start: '2026-11-30' });
      await call(bearer, 'climbing.add', { guest: 'Sam' });
      await call(bearer, 'climbing.list');
      await call(bearer, 'windowsKeys.add', { key: 'ABCDE-12345-FGHIJ-67890-KLMNP', status: 'Unused', location: 'drawer' });
      await call(bearer, 'windowsKeys.list');

      // The member's own: notifications, settings, webhooks; the owner's: accounts, backups
      await call(bearer, 'notifications.list', {});
      await call(bearer, 'notifications.unreadCount');
      await call(bearer, 'settings.colors');
      await call(bearer, 'webhooks.list');
      await call(bearer, 'admin.users');
      await call(bearer, 'admin.waitingCount');
      await call(bearer, 'backups.status');

      // Public, and browser only (a session cookie)
      await call({}, 'auth.status');
      await call(browser, 'auth.tokens');
      await call(browser, 'auth.devices');
    });

    it('answers the documented /api paths as the document says', async () => {
      const owner = await createUser(s.deps, 'owner', 3);
      const { token } = await issueToken(s.deps, owner.id, 'Script', null);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      for (const [url, payload] of [
        ['/api/todo/add', { task: 'Milk' }],
        ['/api/todo/get', {}],
      ] as const) {
        const { validate } = answerOf(url);
        const res = await s.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(payload) });
        expect(res.statusCode, res.body).toBe(200);
        expect(validate(res.json()), `${url} answered ${res.body}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked.add(url);
      }
    });
  });
});
