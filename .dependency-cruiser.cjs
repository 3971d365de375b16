/**
 * The module graph of docs/architecture.md, enforced (`npm run deps`, run by .ci/run).
 * Every import inside src/ must match one of `allowed`; `forbidden` adds what no allowed
 * rule may let through. When the architecture changes, change docs/architecture.md and
 * this file together.
 */

/** What each folder under src/ may import besides itself and the platform (see docs). */
const MAY_IMPORT = {
  // Platform folders, bottom up.
  common: [],
  config: ['common'],
  metrics: ['common', 'config'],
  logging: ['common', 'config'],
  redis: ['common', 'config'],
  database: ['common', 'config', 'metrics'],
  http: ['common', 'config', 'database', 'metrics'],
  // Feature modules, bottom up.
  publishers: [],
  safety: [],
  auth: ['publishers'],
  earnings: ['publishers'],
  campaigns: ['earnings'],
  'campaign-index': ['campaigns'],
  tracking: ['campaign-index', 'campaigns', 'earnings', 'publishers'],
  ads: ['campaign-index', 'campaigns', 'tracking', 'publishers', 'safety', 'earnings'],
  // Edges: they wire or present the modules and nothing imports them.
  health: ['campaign-index', 'tracking'],
  demo: ['auth', 'campaigns', 'publishers'],
  dashboard: ['auth'],
};

const PLATFORM_FOLDERS = ['common', 'config', 'metrics', 'logging', 'redis', 'database', 'http'];

const allowed = [
  // Packages and Node's own modules.
  {
    from: {},
    to: {
      dependencyTypes: [
        'core',
        'npm',
        'npm-dev',
        'npm-optional',
        'npm-peer',
        'npm-no-pkg',
        'npm-unknown',
      ],
    },
  },
  // Unit specs share helpers with the e2e suites.
  { from: { path: '\\.spec\\.ts$' }, to: { path: '^test/support/' } },
  // The data source lists the migrations.
  { from: { path: '^src/database/' }, to: { path: '^migrations/' } },
  // Test helpers that specs import are outside src/ and outside these rules.
  { from: { pathNot: '^src/' }, to: {} },
  // Inside one folder.
  { from: { path: '^src/([^/]+)/' }, to: { path: '^src/$1/' } },
  // The composition root (src/*.ts: main, app.module, app.setup, entities, openapi) wires all.
  { from: { path: '^src/[^/]+\\.ts$', pathNot: '^src/tracing\\.ts$' }, to: { path: '^src/' } },
  // src/tracing.ts belongs to the platform, beside the composition root's files.
  { from: { path: '^src/tracing\\.ts$' }, to: { path: '^src/(common|config)/' } },
  ...Object.entries(MAY_IMPORT).map(([folder, targets]) => {
    const isPlatform = PLATFORM_FOLDERS.includes(folder);
    const names = isPlatform ? targets : [...targets, ...PLATFORM_FOLDERS];
    const alternatives = names.map((name) => `${name}/`);
    // Features may use the tracing helpers at src/tracing.ts, part of the platform.
    if (!isPlatform) alternatives.push('tracing\\.ts$');
    return {
      from: { path: `^src/${folder}/` },
      to: { path: alternatives.length ? `^src/(${alternatives.join('|')})` : '^$' },
    };
  }),
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle, even inside one module, means two files that cannot be read apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-other-module-internals',
      comment:
        "A module's repositories (its queries) and controllers (its routes) are its own: other modules call its exported services (docs/architecture.md).",
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/.+\\.(repository|controller)\\.ts$', pathNot: '^src/$1/' },
    },
    {
      name: 'no-matcher-internals',
      comment:
        "The matcher's data structures are the campaign index's own; others use CampaignIndexService, the match types and the targeting helpers.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/campaign-index/' },
      to: {
        path: '^src/campaign-index/matching/',
        pathNot: '^src/campaign-index/matching/(matching\\.types|targeting)\\.ts$',
      },
    },
    {
      name: 'no-orphans',
      comment: 'A source file nothing imports is dead code (entry points and specs aside).',
      severity: 'error',
      from: {
        orphan: true,
        pathNot: ['\\.spec\\.ts$', '^src/main\\.ts$', '^src/dashboard/web/', '\\.d\\.ts$'],
      },
      to: {},
    },
  ],
  allowed,
  allowedSeverity: 'error',
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/dashboard/web/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
