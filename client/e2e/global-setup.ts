import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.ts';

/**
 * The browser tests run against the built client served by the built server. turbo builds both
 * before `test`; when someone runs the e2e config alone on a fresh checkout, build what is missing.
 */
export default function setup(): void {
  const serverEntry = path.join(repoRoot, 'server', 'dist', 'index.js');
  const clientIndex = path.join(repoRoot, 'client', 'dist', 'about', 'index.html');
  if (!fs.existsSync(serverEntry)) {
    console.log('[e2e] server/dist is missing; building the server');
    execFileSync('npm', ['run', 'build', '-w', '@site/server'], { cwd: repoRoot, stdio: 'inherit' });
  }
  if (!fs.existsSync(clientIndex)) {
    console.log('[e2e] client/dist is missing; building the client');
    execFileSync('npx', ['vite', 'build'], { cwd: path.join(repoRoot, 'client'), stdio: 'inherit' });
  }
  fs.mkdirSync(path.join(repoRoot, 'test-output', 'screenshots'), { recursive: true });
}
