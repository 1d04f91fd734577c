import type { TestProject } from 'vitest/node';
import { bundleClis, makeMigratedDataDir, type CliBundles } from '@site/server/testing/cli-fixtures';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The command-line tools bundled once for this run (server/src/testing/cli-fixtures.ts): source -> bundle. */
    cliBundles: CliBundles;
    /** A DATA_DIR whose embedded database is migrated, for the tests to copy (run-cli.ts's migratedDataDir). */
    migratedDataDir: string;
  }
}

/** Made once per run: the tools' bundles (the tests start them with plain `node`) and a migrated DATA_DIR. */
export default async function setup(project: TestProject): Promise<() => void> {
  made ??= Promise.all([bundleClis(), makeMigratedDataDir()]);
  users += 1;
  const [clis, template] = await made;
  project.provide('cliBundles', clis.bundles);
  project.provide('migratedDataDir', template.dir);
  return () => {
    users -= 1;
    if (users > 0) return;
    clis.remove();
    template.remove();
  };
}

/** Made once for every project of the run (the S3 project's import test too): each project's setup shares it. */
let made: Promise<[Awaited<ReturnType<typeof bundleClis>>, Awaited<ReturnType<typeof makeMigratedDataDir>>]> | undefined;
let users = 0;
