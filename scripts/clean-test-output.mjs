// Removes the previous run's reports so the closing summary counts only this run.
import fs from 'node:fs';
import path from 'node:path';

fs.rmSync(path.join(import.meta.dirname, '..', 'test-output', 'results'), { recursive: true, force: true });
