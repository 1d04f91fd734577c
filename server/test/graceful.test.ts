import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDb } from '../src/db/database.ts';
import { spawnServer } from '../src/testing/spawn-server.ts';

/**
 * SIGTERM during a burst of writes: the server stops accepting, finishes what is in flight, closes
 * the database and exits 0, and every write it acknowledged is there after it. Needs the built server.
 */
describe('graceful stop', () => {
  it('keeps every acknowledged write when stopped with SIGTERM in the middle of a burst', async () => {
    const server = await spawnServer({ env: { SIGNUP_MAX_PER_ADDRESS: '100000' }, timeoutMs: 150_000 });
    const acknowledged: string[] = [];
    let next = 0;
    let signalled = false;
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));

    const worker = async () => {
      for (;;) {
        const name = `writer${next++}`;
        if (next > 2000) return;
        try {
          const res = await fetch(`${server.url}/api/signup_attempt`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ signupName: name, signupPass: 'walnut-table-9', signupConfPass: 'walnut-table-9' }),
          });
          if (res.status === 200) acknowledged.push(name);
        } catch {
          if (signalled) return;
        }
        if (!signalled && acknowledged.length >= 30) {
          signalled = true;
          server.process.kill('SIGTERM');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(await exited).toBe(0);
    expect(signalled).toBe(true);

    const handle = await createDb({ kind: 'pglite', dataDir: server.dataDir });
    try {
      const rows = await handle.db.selectFrom('users').select('name').execute();
      const stored = new Set(rows.map((r) => r.name));
      expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(30);
    } finally {
      await handle.close();
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
  }, 400_000);
});
