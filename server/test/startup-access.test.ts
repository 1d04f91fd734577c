import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestSetupCode } from '../src/local-commands/control.ts';
import { spawnServer } from '../src/testing/spawn-server.ts';
import { rawRequest } from './helpers.ts';

describe('the built server at start', () => {
  it('prints the setup code while no account exists (the control socket gives the same), and listens on EXTRA_PORT too', async () => {
    const extraPort = randomInt(20000, 40000);
    const server = await spawnServer({ env: { EXTRA_PORT: String(extraPort) }, timeoutMs: 120_000 });
    try {
      await expect.poll(() => server.output(), { timeout: 30_000 }).toMatch(/setup code [A-Z2-9]{5}-[A-Z2-9]{5}/);
      const code = /setup code ([A-Z2-9]{5}-[A-Z2-9]{5})/.exec(server.output())?.[1];
      expect(server.output()).toContain(`site: also listening on http://127.0.0.1:${extraPort}`);
      expect(await requestSetupCode(server.dataDir)).toBe(code);
      const health = await rawRequest(`http://127.0.0.1:${extraPort}`, 'GET', '/healthz');
      expect(health.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
