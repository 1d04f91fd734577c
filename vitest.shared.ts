import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ViteUserConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Every package's vitest run writes a JSON report under test-output/results so that
 * `npm test` can close with one plain "N passed, N failed" line for the whole suite.
 */
export function reporters(name: string): NonNullable<ViteUserConfig['test']>['reporters'] {
  return ['default', ['json', { outputFile: path.join(root, 'test-output', 'results', `${name}.json`) }]];
}
