// `npm start`: builds only when a source is newer than the last build, then runs the service.
// A build takes tens of seconds; a restart with nothing changed should not pay for one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist', 'src', 'main.js');

/** What the build reads: a change to any of these makes the last build stale. */
const SOURCES = [
  'src',
  'migrations',
  'scripts/build-dashboard.mjs',
  'package.json',
  'nest-cli.json',
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes only its directory's mtime
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

function sourcesNewest() {
  const tsconfigs = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  return Math.max(...[...SOURCES, ...tsconfigs].map((name) => newestMtime(join(root, name))));
}

function buildIsFresh() {
  // The entry point's mtime is set to when the last build began (below).
  return existsSync(entry) && statSync(entry).mtimeMs >= sourcesNewest();
}

if (buildIsFresh()) {
  console.log('dist is newer than every source: starting without a build');
} else {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const began = new Date();
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // tsc's incremental build leaves unchanged outputs alone, so the entry point is stamped
  // with the build's start: a source saved during the build still counts as newer.
  utimesSync(entry, began, began);
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
