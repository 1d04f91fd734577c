/**
 * bench:lighthouse's bare-libraries page (bare-page/: the shell's libraries and one heading), built
 * once with Vite into a temporary folder and served from this process over 127.0.0.1 as the site
 * serves its build: brotli (quality 11) when the browser accepts it, hashed files cached a year.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

export type BarePage = { url: string; scriptKb: number; close: () => Promise<void> };

export async function startBarePage(): Promise<BarePage> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-page-'));
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', path.join(here, 'bare-page'), '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
  });
  const files = new Map<string, { type: string; raw: Buffer; br: Buffer }>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const raw = fs.readFileSync(full);
        const br = zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
        files.set(`/${path.relative(outDir, full).split(path.sep).join('/')}`, { type: TYPES[path.extname(full)] ?? 'application/octet-stream', raw, br });
      }
    }
  };
  walk(outDir);
  fs.rmSync(outDir, { recursive: true, force: true });
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const file = files.get(pathname) ?? files.get('/index.html');
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const brotli = /\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = brotli ? file.br : file.raw;
    res.writeHead(200, {
      'content-type': file.type,
      'content-length': body.length,
      'cache-control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'Accept-Encoding',
      ...(brotli ? { 'content-encoding': 'br' } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const scriptKb = [...files].filter(([name]) => name.endsWith('.js')).reduce((sum, [, f]) => sum + f.br.length, 0) / 1024;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    scriptKb,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
