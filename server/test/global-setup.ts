import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { PGLITE_EXTENSIONS, createDb } from '../src/db/database.ts';
import { migrateToLatest } from '../src/migrations.ts';
import { makeTestCertificate } from '../src/testing/push-service.ts';
import { startTestS3 } from '../src/testing/s3-server.ts';
import { bundleClis, type CliBundles } from '../src/testing/cli-fixtures.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data folder as a tar file (PGlite's dumpDataDir), or '' when none was made. */
    pgliteTemplate: string;
    /** A migrated PostgreSQL database on TEST_DATABASE_URL's server to copy (CREATE DATABASE ... TEMPLATE), or ''. */
    postgresTemplate: string;
    /** The test push service's self-signed certificate and key (files), trusted by the test workers through NODE_EXTRA_CA_CERTS. */
    pushTls: { cert: string; key: string; trusted: string };
    /**
     * With TEST_MEDIA_STORE=s3: the S3 settings (MEDIA_STORE=s3 and S3_*, without S3_PREFIX) of an
     * s3rver this run started on 127.0.0.1, which test/helpers.ts's testConfig gives every server
     * whose test names no MEDIA_STORE; {} otherwise.
     */
    mediaStoreEnv: Record<string, string>;
    /** The command-line tools bundled once for this run (src/testing/cli-fixtures.ts): source -> bundle. */
    cliBundles: CliBundles;
  }
}

/**
 * Migrates one database of each kind once per run, for test/helpers.ts's createTestDb to copy.
 * A PGlite started empty runs initdb (a second WebAssembly PostgreSQL) on every start, about 5 s on
 * a busy 2-core box, and every database test file starts one or more; a PGlite loaded from a
 * migrated folder's tar starts in about 1 s. On PostgreSQL a copy of a migrated template replaces
 * running every migration again. Both are made from this code's migrations at the start of every
 * run, so they are never stale.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const undo: (() => Promise<void> | void)[] = [];
  const teardown = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    // The test push service's certificate, made here so that the test workers, started after this,
    // trust it the standard Node way: NODE_EXTRA_CA_CERTS is read when a process starts.
    const tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-test-tls-'));
    undo.push(() => fs.rmSync(tlsDir, { recursive: true, force: true }));
    const tls = makeTestCertificate(tlsDir);
    const trusted = path.join(tlsDir, 'trusted.pem');
    const earlier = process.env.NODE_EXTRA_CA_CERTS;
    fs.writeFileSync(trusted, (earlier && fs.existsSync(earlier) ? fs.readFileSync(earlier, 'utf8') + '\n' : '') + fs.readFileSync(tls.cert, 'utf8'));
    process.env.NODE_EXTRA_CA_CERTS = trusted;
    undo.push(() => {
      if (earlier === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = earlier;
    });
    project.provide('pushTls', { ...tls, trusted });
    const clis = await bundleClis();
    undo.push(clis.remove);
    project.provide('cliBundles', clis.bundles);
    project.provide('mediaStoreEnv', {});
    if (process.env.TEST_MEDIA_STORE === 's3') {
      const s3 = await startTestS3();
      undo.push(() => s3.close());
      const { S3_PREFIX: _each, ...env } = s3.env();
      project.provide('mediaStoreEnv', env);
    } else if (process.env.TEST_MEDIA_STORE && process.env.TEST_MEDIA_STORE !== 'local') {
      throw new Error(`TEST_MEDIA_STORE must be local or s3, not ${process.env.TEST_MEDIA_STORE}`);
    }
    const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    const lite = new Kysely({ dialect: new PGliteDialect(client) });
    try {
      await migrateToLatest(lite);
      const dump = await client.dumpDataDir('none');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-test-template-'));
      undo.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      const file = path.join(dir, 'pglite.tar');
      fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
      project.provide('pgliteTemplate', file);
    } finally {
      await lite.destroy();
    }

    const adminUrl = process.env.TEST_DATABASE_URL;
    project.provide('postgresTemplate', '');
    if (adminUrl) {
      const name = `site_test_template_${randomBytes(6).toString('hex')}`;
      await adminQuery(adminUrl, `create database ${name}`);
      undo.push(() => adminQuery(adminUrl, `drop database if exists ${name} with (force)`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const handle = await createDb({ kind: 'postgres', url: url.toString() });
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      // Nobody may connect to it from now on: CREATE DATABASE ... TEMPLATE refuses a template in use.
      await adminQuery(adminUrl, `alter database ${name} with allow_connections false`);
      project.provide('postgresTemplate', name);
    }
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}
