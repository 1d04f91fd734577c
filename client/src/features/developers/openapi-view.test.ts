import { describe, expect, it } from 'vitest';
import { answerSchemaOf, entriesByArea, type OpenApiDocument } from './openapi-view.ts';

/** A document as the server makes it (server/src/areas/developers/openapi.ts), cut to four operations. */
const envelope = (data?: object) => ({
  type: 'object',
  required: ['result'],
  properties: { result: { type: 'object', properties: data ? { data } : {}, additionalProperties: false } },
  additionalProperties: false,
});
const json = (schema: object) => ({ '200': { description: 'The answer', content: { 'application/json': { schema } } } });
const tree = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } }, additionalProperties: false };
const doc: OpenApiDocument = {
  info: { title: 'Site API' },
  paths: {
    '/trpc/house.add': { post: { operationId: 'house.add', tags: ['house'], responses: json(envelope({ $ref: '#/components/schemas/HouseChangeResult' })) } },
    '/trpc/tags.add': { post: { operationId: 'tags.add', tags: ['tags'], responses: json(envelope()) } },
    '/trpc/family.tree': { get: { operationId: 'family.tree', tags: ['family'], responses: json(envelope({ $ref: '#/components/schemas/Tree' })) } },
    '/api/pictures/{path}': { get: { operationId: 'GET /api/pictures/*', tags: ['http'], responses: { '200': { description: 'A file' } } } },
  },
  components: {
    schemas: {
      HouseChangeResult: { description: "A house write's answer", type: 'object', properties: { id: { type: 'number' }, note: { type: ['null', 'string'] } }, additionalProperties: false },
      Tree: tree,
    },
  },
};
const entry = (path: string) => [...entriesByArea(doc).values()].flat().find((e) => e.path === path)!;

describe('what the reference page shows a call answers', () => {
  it("gives a procedure's data with its named types written out", () => {
    expect(answerSchemaOf(entry('/trpc/house.add'), doc)).toEqual({
      description: "A house write's answer",
      type: 'object',
      properties: { id: { type: 'number' }, note: { type: ['null', 'string'] } },
      additionalProperties: false,
    });
  });

  it('says a procedure answers nothing, and a file route no JSON', () => {
    expect(answerSchemaOf(entry('/trpc/tags.add'), doc)).toBe('nothing');
    expect(answerSchemaOf(entry('/api/pictures/{path}'), doc)).toBeNull();
  });

  it('keeps a type that holds itself as a reference, once written out', () => {
    expect(answerSchemaOf(entry('/trpc/family.tree'), doc)).toEqual({ ...tree, properties: { ...tree.properties, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } });
  });
});
