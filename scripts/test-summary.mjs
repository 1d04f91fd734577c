// Adds up the JSON reports every vitest run wrote and prints one closing line for the whole suite,
// after the slowest test files of the run with their times (docs/testing.md keeps what they were).
import fs from 'node:fs';
import path from 'node:path';

const SLOWEST = 15;
const root = path.join(import.meta.dirname, '..');
const dir = path.join(root, 'test-output', 'results');
let passed = 0;
let failed = 0;
let skipped = 0;
const times = [];
const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
for (const file of files) {
  const suite = path.basename(file, '.json');
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`${suite}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  for (const result of report.testResults ?? []) {
    if (typeof result.startTime === 'number' && typeof result.endTime === 'number') {
      times.push({ suite, file: path.relative(root, result.name), seconds: (result.endTime - result.startTime) / 1000 });
    }
  }
}
if (times.length > 0) {
  times.sort((a, b) => b.seconds - a.seconds);
  console.log(`slowest ${Math.min(SLOWEST, times.length)} test files:`);
  for (const { suite, file, seconds } of times.slice(0, SLOWEST)) console.log(`${seconds.toFixed(1).padStart(7)} s  ${file} (${suite})`);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0) process.exit(1);
