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

describe('README and docs/ links', () => {
  const root = path.join(import.meta.dirname, '..', '..');
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f));
  // A clone has only the repository: every link must lead to a file in it (no ../shared, no web page).
  it.each(['README.md', ...docs])('%s links only to files inside the repository', (file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      expect(target, `${file} links outside the repository`).not.toMatch(/^[a-z]+:/i);
      const [filePart = ''] = target.split('#');
      if (filePart === '') continue;
      const resolved = path.resolve(root, path.dirname(file), filePart);
      expect(resolved.startsWith(root + path.sep), `${file} links above the repository: ${target}`).toBe(true);
      expect(fs.existsSync(resolved), `${file} links to a missing file: ${target}`).toBe(true);
    }
    expect(text).not.toContain('../shared');
  });

  it('gives the two commands on the first screen', () => {
    const firstScreen = readme.split('\n').slice(0, 25).join('\n');
    expect(firstScreen).toContain('npm install && npm start');
    expect(firstScreen).toContain('npm test');
  });
});
