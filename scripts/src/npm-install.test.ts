import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm install` stays quiet: every locked package runs on the oldest Node the project's engines
 * accept (else npm warns EBADENGINE), and every package with an install script is named in
 * allowScripts (else npm skips the script and prints its install-scripts notice).
 */
type Manifest = { engines?: { node?: string }; allowScripts?: Record<string, boolean> };
type Locked = { version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean; optional?: boolean; dev?: boolean };

const root = path.join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> };
const installed = Object.entries(lock.packages).filter(([key]) => key.includes('node_modules/'));
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('npm install', () => {
  it('locks only packages whose engines accept the oldest Node the project supports', () => {
    const oldest = semver.minVersion(manifest.engines?.node ?? '')?.version;
    expect(oldest, 'package.json names engines.node').toBeDefined();
    const refused = installed
      .filter(([, pkg]) => pkg.engines && !Array.isArray(pkg.engines) && pkg.engines.node)
      .filter(([, pkg]) => !semver.satisfies(oldest ?? '', (pkg.engines as { node: string }).node, { includePrerelease: true }))
      .map(([key, pkg]) => `${nameOf(key)}@${pkg.version} wants node ${(pkg.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });

  it('allows the install scripts of every locked package that has one', () => {
    const allowed = manifest.allowScripts ?? {};
    const withScripts = [...new Set(installed.filter(([, pkg]) => pkg.hasInstallScript).map(([key]) => nameOf(key)))];
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => allowed[name] === undefined)).toEqual([]);
  });
});
