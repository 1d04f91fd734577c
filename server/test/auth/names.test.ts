import { describe, expect, it } from 'vitest';
import { authMessages } from '@site/contracts';
import { databases, postJson, TEST_PASSWORD, useTestServer } from '../helpers.ts';

const signup = (name: string) => ({ signupName: name, signupPass: TEST_PASSWORD, signupConfPass: TEST_PASSWORD });

describe.each(databases)('names as people write them (%s)', (kind) => {
  const s = useTestServer(kind);

  it('takes names with emoji sequences: joiners, variation selectors, skin tones, flags', async () => {
    const names = ['Lena 🧗‍♀️', 'Max 👍🏽', 'Kim 🧑🏿‍🚀', 'Ann ❤️', 'Jo 🇩🇪', 'Us 👨‍👩‍👧‍👦'];
    for (const name of names) {
      const res = await postJson(s.app, '/api/signup_attempt', signup(name));
      expect([res.statusCode, res.json().user], name).toEqual([200, name]);
    }
    const login = await postJson(s.app, '/api/login_attempt', { loginName: 'lena 🧗‍♀️', loginPass: TEST_PASSWORD });
    // The first account is the owner's: it signs in by its emoji name, in any case.
    expect(login.json()).toMatchObject({ user: 'Lena 🧗‍♀️', authenticated: 3 });
    expect((await s.db.selectFrom('users').select('name').orderBy('id').execute()).map((r) => r.name)).toEqual(names);
  });

  it('refuses direction overrides, stray invisible characters and look-alike letters, and stores nothing', async () => {
    const cases: [string, string][] = [
      ['ad\u202emin', authMessages.nameInvisible],
      ['ad\u2066min', authMessages.nameInvisible],
      ['ad\u200dmin', authMessages.nameInvisible],
      ['Lena \u200d🧗', authMessages.nameInvisible],
      ['a\ufe0fdmin', authMessages.nameInvisible],
      ['admin\u{e0041}', authMessages.nameInvisible],
      ['p\u0430ypal', authMessages.nameLookalike],
      ['ａｄｍｉｎ', authMessages.nameLookalike],
    ];
    for (const [name, message] of cases) {
      const res = await postJson(s.app, '/api/signup_attempt', signup(name));
      expect([res.statusCode, res.json()], JSON.stringify(name)).toEqual([400, { message }]);
    }
    expect(await s.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('compares names in NFC, so a decomposed spelling is the same name', async () => {
    expect((await postJson(s.app, '/api/signup_attempt', signup('Zoë 🌸'))).statusCode).toBe(200);
    const again = await postJson(s.app, '/api/signup_attempt', signup('Zoe\u0308 🌸'));
    expect([again.statusCode, again.json()]).toEqual([409, { message: authMessages.nameTaken }]);
    const login = await postJson(s.app, '/api/login_attempt', { loginName: 'ZOE\u0308 🌸', loginPass: TEST_PASSWORD });
    expect(login.json()).toMatchObject({ user: 'Zoë 🌸' });
  });
});
