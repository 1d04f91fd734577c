import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTempArea } from './temp-area.ts';

describe('the temporary area', () => {
  it('leaves no file behind when a receive is aborted while its file is still being opened', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'temp-area-'));
    try {
      const temp = createTempArea(root);
      for (let i = 0; i < 200; i++) {
        const abort = new AbortController();
        const pending = temp.receive(new Readable({ read() {} }), { maxBytes: 1e6, signal: abort.signal });
        abort.abort();
        await expect(pending).rejects.toThrow();
        expect(fs.readdirSync(root)).toEqual([]);
        const broken = new Readable({
          read() {
            this.push(Buffer.alloc(1000));
            this.destroy(new Error('connection reset'));
          },
        });
        await expect(temp.receive(broken, { maxBytes: 1e6 })).rejects.toThrow('connection reset');
        expect(fs.readdirSync(root)).toEqual([]);
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
