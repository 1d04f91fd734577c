// Runs shell commands at the same time (npm test: lint beside typecheck, which wait on different
// things), prints each one's output whole when it ends, and fails if any failed.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/parallel.mjs "<command>" "<command>" ...');
  process.exit(2);
}
const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(`> ${command} (${seconds} s, ${signal ?? `exit ${code}`})\n${output}\n`);
          resolve(code === 0);
        });
      }),
  ),
);
if (results.some((ok) => !ok)) process.exit(1);
