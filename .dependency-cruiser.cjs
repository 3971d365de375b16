/**
 * The module graph of docs/architecture.md, enforced (`npm run deps`, run by .ci/run).
 * Every import inside src/ and bench/ must match one of `allowed`; `forbidden` adds what no
 * allowed rule may let through. When the architecture changes, change docs/architecture.md
 * and this file together.
 *
 * bench/ (the benchmarks, docs/testing.md) uses src/ as one module uses another: the
 * composition root (src/*.ts), the platform folders, and modules' services, entities, types
 * and helpers, never their repositories, controllers or the matcher's internals; the few
 * files that measure one of those alone are named in the bench-* rules below. Nothing in
 * src/ imports bench/ (no allowed rule lets it).
 */

/** What each folder under src/ may import besides itself and the platform (see docs). */
const MAY_IMPORT = {
  // Platform folders, bottom up.
  common: [],
  config: ['common'],
  metrics: ['common', 'config'],
  logging: ['common', 'config'],
  redis: ['common', 'config'],
  mail: ['common', 'config'],
  database: ['common', 'config', 'metrics'],
  http: ['common', 'config', 'database', 'metrics'],
  // Feature modules, bottom up.
  publishers: [],
  safety: [],
  auth: ['publishers'],
  earnings: ['publishers'],
  reports: ['earnings', 'publishers'],
  stats: ['earnings', 'reports', 'publishers'],
  payouts: ['earnings', 'reports', 'publishers'],
  campaigns: ['earnings', 'reports'],
  'campaign-index': ['campaigns'],
  tracking: ['campaign-index', 'campaigns', 'earnings', 'publishers'],
  ads: ['campaign-index', 'campaigns', 'tracking', 'publishers', 'safety', 'earnings'],
  conversions: ['campaigns', 'earnings', 'tracking'],
  // Edges: they wire or present the modules and nothing imports them.
  health: ['campaign-index', 'tracking'],
  demo: ['auth', 'campaigns', 'publishers'],
  dashboard: ['auth'],
};

const PLATFORM_FOLDERS = [
  'common',
  'config',
  'metrics',
  'logging',
  'redis',
  'mail',
  'database',
  'http',
];

/** A module's own files that no other module may import: its queries and its routes. */
const MODULE_INTERNALS = '^src/[^/]+/.+\\.(repository|controller)\\.ts$';

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
  // Test helpers that specs import are outside src/ and bench/ and outside these rules.
  { from: { pathNot: '^(src|bench)/' }, to: {} },
  // bench/: its own files and src/ (narrowed by the bench-* rules in `forbidden`), and the
  // safety corpus's reader, shared with scripts/safety-train.ts.
  { from: { path: '^bench/' }, to: { path: '^(bench|src)/' } },
  { from: { path: '^bench/' }, to: { path: '^scripts/safety/corpus\\.ts$' } },
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
      from: { path: '^src/([^/]+)/', pathNot: '^src/stats/' },
      to: { path: MODULE_INTERNALS, pathNot: '^src/$1/' },
    },
    {
      name: 'no-other-module-internals',
      comment:
        "The same for stats, with one exception: StatsModule provides earnings' FillStatsRepository itself, to read the fill counts that earnings' FillStatsRecorder writes through it (docs/architecture.md).",
      severity: 'error',
      from: { path: '^src/stats/' },
      to: {
        path: MODULE_INTERNALS,
        pathNot: ['^src/stats/', '^src/earnings/fill-stats\\.repository\\.ts$'],
      },
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
    // Inside the matcher, bottom up: each part uses only itself and the parts below it, and
    // none uses campaign-index.ts or campaign-index-builder.ts, which put them together.
    ...['words', 'index', 'search'].map((part, layer, parts) => ({
      name: 'matcher-layers',
      comment:
        "The matcher's parts are layered (docs/architecture.md): words/ (text, languages, the word index) uses no other part; index/ (the layout) uses words/; search/ (the walk, scoring, the controls) uses index/ and words/. Any part may use the leaves at the top (the match types, the tuning, targeting, build-slices); specs may build a whole index.",
      severity: 'error',
      from: { path: `^src/campaign-index/matching/${part}/`, pathNot: '\\.spec\\.ts$' },
      to: {
        path: '^src/campaign-index/matching/',
        pathNot: [
          `^src/campaign-index/matching/(${parts.slice(0, layer + 1).join('|')})/`,
          '^src/campaign-index/matching/(matching\\.types|relevance-tuning|targeting|build-slices)\\.ts$',
        ],
      },
    })),
    {
      name: 'bench-no-module-internals',
      comment:
        "bench/ calls modules as other modules do, not through their repositories or controllers. Exceptions, each timing or rebuilding a repository's own work alone: baselines/writer.ts builds the impression writer without Nest (its tracking and earnings repositories), baselines/raw-insert.ts inserts rows in the impressions repository's column order, stats-query.ts times the stats repositories' query.",
      severity: 'error',
      from: {
        path: '^bench/',
        pathNot: '^bench/(baselines/writer|baselines/raw-insert|stats-query)\\.ts$',
      },
      to: { path: '^src/[^/]+/.+\\.(repository|controller)\\.ts$' },
    },
    {
      name: 'bench-no-matcher-internals',
      comment:
        'As no-matcher-internals, except for the two benchmarks of the matcher itself: matcher/matcher.ts (its speed) and relevance/matcher-server.ts (its answers on the labelled set) build a CampaignIndex directly.',
      severity: 'error',
      from: {
        path: '^bench/',
        pathNot: '^bench/(matcher/matcher|relevance/matcher-server)\\.ts$',
      },
      to: {
        path: '^src/campaign-index/matching/',
        pathNot: '^src/campaign-index/matching/(matching\\.types|targeting)\\.ts$',
      },
    },
    {
      name: 'bench-commands-on-top',
      comment:
        "bench/*.ts are the commands (package.json's scripts run them from dist/bench/); the folders below hold their parts and never import a command.",
      severity: 'error',
      from: { path: '^bench/[^/]+/' },
      to: { path: '^bench/[^/]+\\.ts$' },
    },
    {
      name: 'no-orphans',
      comment: 'A source file nothing imports is dead code (entry points and specs aside).',
      severity: 'error',
      from: {
        orphan: true,
        pathNot: [
          '\\.spec\\.ts$',
          '^src/main\\.ts$',
          '^src/dashboard/web/',
          '\\.d\\.ts$',
          // Preloaded into the profiled service by path (`node -r`), imports nothing.
          '^bench/measure/exit-on-signal\\.ts$',
        ],
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
