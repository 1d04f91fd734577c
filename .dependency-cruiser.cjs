// @ts-check
/**
 * The server's layers point one way (../shared/ARCHITECTURE.md, docs/structure.md):
 *   platform (errors, config, db client, net, identity, http helpers, trpc base, media storage, worker loop)
 *   <- areas (server/src/areas/<area>/)
 *   <- composition (areas/index.ts, areas/tables.ts, router.ts, app.ts, index.ts, migrations.ts, watch-changes.ts).
 * An area reaches another only through a named port (areas/<area>/<area>.port.ts) or an event
 * (areas/<area>/<area>.events.ts). `npm run lint` runs this; scripts/lint-fixtures/layers proves each rule fires.
 * The same rules apply to the fixture tree (lint-fixtures/layers/server/src/...), hence the optional prefix.
 */
const root = '^(?:scripts/lint-fixtures/layers/)?';
const src = `${root}server/src/`;
const composition = `${src}(?:(?:app|index|router|migrations|migrate-cli|watch-changes)\\.ts$|areas/(?:index|tables)\\.ts$|.*\\.cli\\.ts$)`;
const area = `${src}areas/[^/]+/`;
const platform = src;
const platformNot = [composition, area];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-not-to-areas',
      comment: 'Platform (config, db, net, identity, http, trpc, media, deps) never imports an area: the composition passes what it needs.',
      severity: 'error',
      from: { path: platform, pathNot: platformNot },
      to: { path: area },
    },
    {
      name: 'platform-not-to-composition',
      comment: 'Platform never imports the composition (areas/index.ts, router.ts, app.ts, ...).',
      severity: 'error',
      from: { path: platform, pathNot: platformNot },
      to: { path: composition },
    },
    {
      name: 'areas-not-to-composition',
      comment: 'An area never imports the composition (areas/index.ts, areas/tables.ts, router.ts, app.ts, index.ts): it is handed what it needs.',
      severity: 'error',
      from: { path: area, pathNot: composition },
      to: { path: composition },
    },
    {
      name: 'area-not-to-other-area',
      comment: 'An area reaches another only through its named port (<area>.port.ts) or its events (<area>.events.ts).',
      severity: 'error',
      from: { path: `${src}areas/([^/]+)/`, pathNot: composition },
      to: { path: `${src}areas/[^/]+/`, pathNot: [`${src}areas/$1/`, `${src}areas/[^/]+/[^/]+\\.(?:port|events)\\.ts$`] },
    },
    {
      name: 'db-knows-no-area',
      comment: 'db/ knows no area: the Tables type is assembled in the composition (areas/tables.ts).',
      severity: 'error',
      from: { path: `${src}db/` },
      to: { path: `${src}(?!db/)` , pathNot: [`${src}errors\\.ts$`] },
    },
    {
      name: 'config-reads-env-only',
      comment: 'config.ts reads the environment only: it imports no other server module.',
      severity: 'error',
      from: { path: `${src}config\\.ts$` },
      to: { path: `${src}` },
    },
    {
      name: 'contracts-no-cycles',
      comment: 'The contracts import no circle (house.rules.ts and house.schemas.ts once did).',
      severity: 'error',
      from: { path: `${root}contracts/src/` },
      to: { circular: true },
    },
    {
      name: 'server-no-cycles',
      comment: 'No import circle in the server.',
      severity: 'error',
      from: { path: `${root}server/src/` },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', '/dist/', 'server/src/testing/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'server/tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js'] },
    reporterOptions: {
      dot: { collapsePattern: ['^server/src/areas/[^/]+/', '^server/src/[^/]+/', '^contracts/src/[^/]+/'] },
      mermaid: { minify: false },
    },
  },
};
