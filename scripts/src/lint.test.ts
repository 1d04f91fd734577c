import path from 'node:path';
import { createRequire } from 'node:module';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');
const fixtures = path.join(root, 'scripts', 'lint-fixtures');

/** The project's eslint.config.js, with the global ignores off so the deliberately bad fixture is linted. */
const eslint = new ESLint({ cwd: root, ignore: false });

async function problems(files: string[]) {
  const results = await eslint.lintFiles(files);
  return results.flatMap((r) =>
    r.messages.map((m) => ({ file: path.relative(root, r.filePath), rule: m.ruleId, message: m.message })),
  );
}

// Loading the config and parsing the import graph takes seconds on a busy machine; nothing here is timed.
describe('module boundaries (eslint.config.js)', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    await eslint.calculateConfigForFile(path.join(fixtures, 'cycle', 'a.ts'));
  }, 120_000);

  it('ignores the bad fixture in the normal lint run', async () => {
    expect(await new ESLint({ cwd: root }).isPathIgnored(path.join(fixtures, 'cycle', 'a.ts'))).toBe(true);
  });

  it('finds an import cycle', async () => {
    const found = await problems([path.join(fixtures, 'cycle')]);
    expect(found.filter((p) => p.rule === 'import-x/no-cycle').map((p) => p.file).sort()).toEqual([
      'scripts/lint-fixtures/cycle/a.ts',
      'scripts/lint-fixtures/cycle/b.ts',
      'scripts/lint-fixtures/cycle/c.tsx',
    ]);
  });

  it('refuses an import from another feature, not from its own folder', async () => {
    const found = await problems([path.join(fixtures, 'features')]);
    expect(found).toEqual([
      expect.objectContaining({
        file: 'scripts/lint-fixtures/features/alpha/Alpha.ts',
        rule: 'import-x/no-restricted-paths',
        message: expect.stringContaining('Features do not import each other'),
      }),
    ]);
  });

  it('refuses a feature importing from the app shell', async () => {
    const found = await problems([path.join(fixtures, 'shell')]);
    expect(found).toEqual([
      expect.objectContaining({
        file: 'scripts/lint-fixtures/shell/features/gamma/Gamma.ts',
        rule: 'import-x/no-restricted-paths',
        message: expect.stringContaining('Features do not import from the app shell'),
      }),
    ]);
  });

  it('zones the real app shell for every client feature', async () => {
    const [result] = await eslint.lintText("import { RouterError } from '../../app/errors.tsx';\nexport const x = RouterError;\n", {
      filePath: path.join(root, 'client', 'src', 'features', 'settings', 'Probe.tsx'),
    });
    expect(result?.messages.map((m) => m.message)).toContainEqual(expect.stringContaining('Features do not import from the app shell'));
  });

  it('zones every real client feature folder', async () => {
    const [result] = await eslint.lintText("import { hub } from '../hub/HubPage.tsx';\nexport const x = hub;\n", {
      filePath: path.join(root, 'client', 'src', 'features', 'settings', 'Probe.tsx'),
    });
    expect(result?.messages.map((m) => m.ruleId)).toContain('import-x/no-restricted-paths');
  });

  it('follows a cycle through a @site/* workspace package', async () => {
    // area.ts is imported by permissions.ts; importing permissions back by its package name closes a cycle.
    const [result] = await eslint.lintText(
      "import { pages } from '@site/contracts/permissions';\nexport const probe = pages;\n",
      { filePath: path.join(root, 'contracts', 'src', 'area.ts') },
    );
    expect(result?.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  });

  it('passes on the real code of a feature', async () => {
    expect(await problems([path.join(root, 'client', 'src', 'features', 'settings')])).toEqual([]);
  });
});

/**
 * The server's layers (.dependency-cruiser.cjs, run by `npm run lint`): scripts/lint-fixtures/layers
 * mirrors server/src and contracts/src with one deliberate break per rule.
 */
describe('server layers (.dependency-cruiser.cjs)', { timeout: 120_000 }, () => {
  it('fires every rule once on its fixture, and lets a named port through', async () => {
    const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as IConfiguration;
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const result = await cruise(['scripts/lint-fixtures/layers'], { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true });
      const output = result.output as ICruiseResult;
      const prefix = 'scripts/lint-fixtures/layers/';
      const found = output.summary.violations.map((v) => `${v.rule.name}: ${v.from.replace(prefix, '')} -> ${v.to.replace(prefix, '')}`).sort();
      expect(found).toEqual([
        'area-not-to-other-area: server/src/areas/beta/beta.service.ts -> server/src/areas/alpha/alpha.repository.ts',
        'areas-not-to-composition: server/src/areas/alpha/alpha.service.ts -> server/src/areas/index.ts',
        'config-reads-env-only: server/src/config.ts -> server/src/errors.ts',
        'contracts-no-cycles: contracts/src/house/house.rules.ts -> contracts/src/house/house.schemas.ts',
        'db-knows-no-area: server/src/db/schema.ts -> server/src/identity/users.ts',
        'platform-not-to-areas: server/src/http/routes.ts -> server/src/areas/alpha/alpha.repository.ts',
        'platform-not-to-composition: server/src/trpc/root.ts -> server/src/areas/index.ts',
        'server-no-cycles: server/src/net/a.ts -> server/src/net/b.ts',
      ]);
    } finally {
      process.chdir(cwd);
    }
  });
});
