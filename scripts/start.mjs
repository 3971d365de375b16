// `npm start`: builds only what is older than its sources, then runs the service.
// A build takes tens of seconds; a restart with nothing changed should not pay for one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// package.json's engines: npm only warns about them, in a list a newcomer scrolls past.
const [major, minor, patch] = process.versions.node.split('.').map(Number);
const supported = major === 22 && (minor > 22 || (minor === 22 && patch >= 3));
if (!supported) {
  console.warn(
    `Adline supports Node.js 22.22.3 or later within 22 (CI runs 22); this is ` +
      `${process.version}, which may work but is not supported` +
      (major >= 24 ? ': better-sqlite3 12 aborts on Node 24.19 and later.' : '.'),
  );
}
const entry = join(root, 'dist', 'src', 'main.js');
const dashboardPage = join(root, 'dist', 'dashboard', 'index.html');
const dashboardSource = join(root, 'src', 'dashboard', 'web');

/** What the server's build (`nest build`) reads; tsconfig*.json files are added below. */
const SERVER_SOURCES = ['src', 'migrations', 'package.json', 'nest-cli.json'];
/** What the dashboard's build (scripts/build-dashboard.mjs) reads. */
const DASHBOARD_SOURCES = ['src/dashboard/web', 'scripts/build-dashboard.mjs', 'package.json'];

function newestMtime(path, skip) {
  if (path === skip || !existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes only its directory's mtime
  for (const name of readdirSync(path)) {
    newest = Math.max(newest, newestMtime(join(path, name), skip));
  }
  return newest;
}

const newestOf = (names, skip) =>
  Math.max(...names.map((name) => newestMtime(join(root, name), skip)));

/** An output is fresh when it exists and is no older than its newest source. */
const isFresh = (output, sourcesNewest) =>
  existsSync(output) && statSync(output).mtimeMs >= sourcesNewest;

// The server does not read the dashboard's sources: an edit there rebuilds the dashboard only.
const tsconfigs = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
const serverFresh = isFresh(entry, newestOf([...SERVER_SOURCES, ...tsconfigs], dashboardSource));
const dashboardFresh = isFresh(dashboardPage, newestOf(DASHBOARD_SOURCES));

/** Runs a build; stamps its outputs with the build's start (see below). */
function runBuild(command, args, outputs) {
  const began = new Date();
  const build = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // tsc's incremental build leaves unchanged outputs alone, so each output is stamped with
  // the build's start: a source saved during the build still counts as newer.
  for (const output of outputs) utimesSync(output, began, began);
}

if (serverFresh && dashboardFresh) {
  console.log('dist is newer than every source: starting without a build');
} else if (serverFresh) {
  // e.g. after a script that ran `nest build` alone, or an edit under src/dashboard/web.
  console.log('the dashboard is missing or older than its sources: building the dashboard');
  runBuild(process.execPath, [join(root, 'scripts', 'build-dashboard.mjs')], [dashboardPage]);
} else {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  runBuild(npm, ['run', 'build'], [entry, dashboardPage]);
}

// The service runs as a child: signals reach it, and its exit code becomes ours.
// The young-generation size production runs with (see the Dockerfile's NODE_OPTIONS).
const child = spawn(process.execPath, ['--max-semi-space-size=32', entry], { stdio: 'inherit' });
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of forwarded) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (code !== null) process.exit(code);
  // Killed by a signal: die of the same one, as a shell expects.
  for (const name of forwarded) process.removeAllListeners(name);
  process.kill(process.pid, signal ?? 'SIGTERM');
});
