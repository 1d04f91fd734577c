import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { insertKitchenUnits } from '../../src/areas/recipes/recipes.migrations.ts';
import { callerFor, cookieFor, createUser, databases, useTestServer, leftInTemp } from '../helpers.ts';
import { pancakes } from './recipes.samples.ts';

const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'recipes-media-'));
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }));

function multipart(field: string, filename: string, type: string, data: Buffer) {
  const boundary = '----recipes-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const png = () => sharp({ create: { width: 900, height: 600, channels: 3, background: '#c08040' } }).png().toBuffer();

describe.each(databases)('recipe images over HTTP (%s)', (kind) => {
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir });
  beforeEach(() => insertKitchenUnits(s.db));

  async function upload(cookie: string, data: Buffer, type = 'image/png') {
    const body = multipart('image', 'flour.png', type, data);
    return s.app.inject({ method: 'POST', url: '/private/recipes/images', payload: body.payload, headers: { ...body.headers, cookie } });
  }

  it('stores an uploaded picture as a small WebP and serves it with Range support', async () => {
    const cookie = await cookieFor(s.deps, 3);
    const res = await upload(cookie, await png());
    expect(res.statusCode).toBe(200);
    const { image } = res.json<{ image: string }>();
    expect(image).toMatch(/^[0-9a-f-]{36}\.webp$/);

    const got = await s.app.inject({ url: `/private/recipes/${image}`, headers: { cookie } });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toContain('image/webp');
    const meta = await sharp(got.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 480, 320]);

    const part = await s.app.inject({ url: `/private/recipes/${image}`, headers: { cookie, range: 'bytes=0-9' } });
    expect([part.statusCode, part.rawPayload.length]).toEqual([206, 10]);
    const friend = await s.app.inject({ url: `/private/recipes/${image}`, headers: { cookie: await cookieFor(s.deps, 1) } });
    expect(friend.statusCode).toBe(403);
  });

  it('refuses files that are not pictures, whatever they claim', async () => {
    const cookie = await cookieFor(s.deps, 3);
    const res = await upload(cookie, Buffer.from('<svg onload="alert(1)"></svg>'), 'image/png');
    expect([res.statusCode, res.json()]).toEqual([415, { message: 'Ingredient images must be JPEG, PNG, WebP, GIF or AVIF pictures' }]);
    const truncated = (await png()).subarray(0, 200);
    expect((await upload(cookie, truncated)).statusCode).toBe(415);
    expect(leftInTemp(mediaDir)).toEqual([]);
  });

  it('answers a body that is not a well-formed multipart form with a readable 400 (found by the fuzz test)', async () => {
    const cookie = await cookieFor(s.deps, 3);
    const res = await s.app.inject({
      method: 'POST',
      url: '/private/recipes/images',
      payload: '{"fileType":{}}',
      headers: { 'content-type': 'multipart/form-data; boundary=x', cookie },
    });
    expect([res.statusCode, res.json()]).toEqual([400, { message: 'The upload is not a complete multipart form: send the image again' }]);
  });

  it('answers 404 for unknown or malformed names', async () => {
    const cookie = await cookieFor(s.deps, 3);
    for (const name of ['00000000-0000-0000-0000-000000000000.webp', '..%2F..%2Fsecret.webp', 'x.webp']) {
      const res = await s.app.inject({ url: `/private/recipes/${name}`, headers: { cookie } });
      expect([res.statusCode, res.json()]).toEqual([404, { message: 'No such recipe image' }]);
    }
  });

  it('deletes a picture once no ingredient names it', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const { token } = await s.deps.sessions.create(owner.id);
    const cookie = `sid=${token}`;
    const { image } = (await upload(cookie, await png())).json<{ image: string }>();
    const api = callerFor(s.deps, owner);
    const withImage = { ...pancakes, steps: [{ instructions: 'Sift.', ingredients: [{ name: 'flour', quantity: 1, unit_abbreviation: 'cup', image }] }] };
    const { recipe_id } = await api.recipes.create(withImage);
    const second = await api.recipes.create(withImage);
    await api.recipes.update({ recipeId: recipe_id, recipe: pancakes });
    expect(fs.existsSync(path.join(mediaDir, 'recipes', image))).toBe(true); // the second recipe still uses it
    await api.recipes.delete({ recipeId: second.recipe_id });
    expect(fs.existsSync(path.join(mediaDir, 'recipes', image))).toBe(false);
  });
});
