import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { environment } from '@site/server/config';

const readme = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('README', () => {
  it.each(environment.map((v) => [v.name, v.default] as const))('documents %s with its default', (name, fallback) => {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, `README configuration table has no row for ${name}`).toBeDefined();
    expect(row).toContain(fallback.startsWith('(') ? fallback : `\`${fallback}\``);
  });

  it('gives the two commands', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });
});
