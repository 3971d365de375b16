// Replays the Dockerfile without a Docker engine, to prove the image would build and run:
// each stage becomes a temporary folder standing for its /app, the build context is this
// repository less .dockerignore, and the stages' own RUN, COPY, ENV and USER lines (read with
// dockerfile-ast, never copied here by hand) run in order. Then the runtime stage's CMD starts
// as its USER (`node`, or `nobody` where this machine has no `node` user) against a fresh
// MariaDB/MySQL database, must become ready, pass the image's HEALTHCHECK, and exit 0 on SIGTERM.
//
//   node scripts/replay-dockerfile.mjs [--keep]
//   REPLAY_DATABASE_URL=mariadb://root@127.0.0.1:3306 (the default): a server where the user
//   may create and drop a database.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, matchesGlob } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerfileParser } from 'dockerfile-ast';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mysql = createRequire(import.meta.url)('mysql2/promise');
const keep = process.argv.includes('--keep');
const started = Date.now();
const log = (line) =>
  console.log(`[replay ${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`);
const fail = (line) => {
  throw new Error(line);
};

/** The user the image runs as, or the stand-in this machine has. */
function runtimeUser(wanted) {
  const exists = (name) => spawnSync('id', ['-u', name]).status === 0;
  const name = exists(wanted) ? wanted : 'nobody';
  const id = (flag) => execFileSync('id', [flag, name], { encoding: 'utf8' }).trim();
  return { name, uid: Number(id('-u')), gid: Number(id('-g')), group: id('-gn') };
}

/** Copies the build context: the repository less what .dockerignore excludes. */
function copyContext(target) {
  const patterns = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim().replace(/^\//, ''))
    .filter((line) => line && !line.startsWith('#'));
  if (patterns.some((p) => p.startsWith('!')))
    fail('.dockerignore exceptions (!) are not replayed');
  const excluded = (rel) => rel === '.git' || patterns.some((p) => matchesGlob(rel, p));
  const visit = (rel) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (excluded(path)) continue;
      if (entry.isDirectory()) {
        mkdirSync(join(target, path), { recursive: true });
        visit(path);
      } else cpSync(join(root, path), join(target, path));
    }
  };
  mkdirSync(target, { recursive: true });
  visit('');
}

/** The stages of the Dockerfile, each with its instructions. */
function readStages(text) {
  const stages = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === 'FROM') {
      stages.push({
        name: instruction.getBuildStage(),
        base: instruction.getImageName(),
        instructions: [],
      });
    } else if (stages.length > 0) stages.at(-1).instructions.push(instruction);
  }
  return stages;
}

/** A path inside a stage's image: only /app (its WORKDIR) exists in the replay. */
function inStage(dir, path, workdir) {
  const absolute = path.startsWith('/') ? path : `${workdir}/${path}`;
  if (absolute !== '/app' && !absolute.startsWith('/app/')) fail(`path ${path} is outside /app`);
  return join(dir, absolute.slice('/app'.length));
}

/** Each use of an earlier stage (FROM it, COPY --from it), in the order they run. */
function stageUses(stages) {
  const names = new Set(stages.map((stage) => stage.name));
  const uses = [];
  for (const stage of stages) {
    if (names.has(stage.base)) uses.push({ name: stage.base, at: stage });
    for (const instruction of stage.instructions) {
      const from = instruction.getKeyword() === 'COPY' && instruction.getFromFlag()?.getValue();
      if (from) uses.push({ name: from, at: instruction });
    }
  }
  return uses;
}

/**
 * Copies a folder of an earlier stage, or moves it when nothing later reads that stage: the
 * same result, without copying (and later deleting) a tree of modules for nothing.
 */
function takeFrom(name, source, destination, at, uses) {
  const last = uses.findLast((use) => use.name === name);
  if (last.at === at) renameSync(source, destination);
  else execFileSync('cp', ['-a', source, destination]);
}

function buildStages(stages, work, context, user) {
  const dirs = new Map();
  const uses = stageUses(stages);
  for (const stage of stages) {
    const dir = join(work, stage.name ?? `stage-${dirs.size}`);
    const parent = dirs.get(stage.base);
    if (parent) {
      log(`FROM ${stage.base} AS ${stage.name}`);
      takeFrom(stage.base, parent.dir, dir, stage, uses);
    } else {
      log(`FROM ${stage.base} AS ${stage.name}: an empty /app`);
      mkdirSync(dir);
    }
    const state = { dir, env: { ...(parent?.env ?? {}) }, workdir: parent?.workdir ?? '/app' };
    for (const instruction of stage.instructions) {
      runInstruction(instruction, state, { dirs, context, user, uses });
    }
    state.user = stage.instructions.filter((i) => i.getKeyword() === 'USER').at(-1);
    dirs.set(stage.name, state);
  }
  return dirs.get(stages.at(-1).name);
}

function runInstruction(instruction, state, { dirs, context, user, uses }) {
  const keyword = instruction.getKeyword();
  const args = instruction.getArgumentsContent() ?? '';
  switch (keyword) {
    case 'WORKDIR':
      state.workdir = args;
      mkdirSync(inStage(state.dir, args, '/app'), { recursive: true });
      return;
    case 'ENV':
      for (const property of instruction.getProperties()) {
        state.env[property.getName()] = property.getValue();
      }
      return;
    case 'COPY': {
      const from = instruction.getFromFlag()?.getValue();
      const parts = args.split(/\s+/);
      const rawTarget = parts.pop();
      const target = inStage(state.dir, rawTarget, state.workdir);
      // Docker's rule: into a folder when the target ends in / or there are several sources.
      const into = rawTarget.endsWith('/') || parts.length > 1;
      for (const source of parts) {
        const destination = into && source !== '.' ? join(target, source.split('/').pop()) : target;
        if (!from) cpSync(join(context, source), destination, { recursive: true });
        else
          takeFrom(
            from,
            inStage(dirs.get(from).dir, source, '/app'),
            destination,
            instruction,
            uses,
          );
      }
      log(`COPY ${from ? `--from=${from} ` : ''}${args}`);
      return;
    }
    case 'RUN': {
      // The OS packages the toolchain installs are this machine's own (python3, make, g++).
      if (/^apt-get\b/.test(args)) return log(`RUN ${args.slice(0, 50)}…: skipped (OS packages)`);
      const command =
        user.name === 'node' ? args : args.replaceAll('node:node', `${user.name}:${user.group}`);
      log(`RUN ${command}`);
      const run = spawnSync('bash', ['-c', command], {
        cwd: inStage(state.dir, '.', state.workdir),
        // The machine's npm cache stands for the registry; prefer it to fresh metadata.
        env: { ...process.env, ...state.env, npm_config_prefer_offline: 'true' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      if (run.status !== 0) fail(`RUN ${command} exited ${run.status}`);
      return;
    }
    default:
      return; // ARG, USER, EXPOSE, HEALTHCHECK, CMD: read where they matter
  }
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function status(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return null;
  }
}

/** Starts the runtime stage's CMD as the image's user and puts it through its paces. */
async function runImage(runtime, text, user, databaseUrl) {
  const instructions = DockerfileParser.parse(text).getInstructions();
  const last = (keyword) => instructions.filter((i) => i.getKeyword() === keyword).at(-1);
  const cmd = last('CMD')
    .getJSONStrings()
    .map((s) => s.getJSONValue());
  const healthcheck = /\bCMD\s+(\[.*\])\s*$/s.exec(last('HEALTHCHECK').getArgumentsContent())?.[1];
  if (!healthcheck) fail('the HEALTHCHECK is not in exec form: CMD ["…"]');
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    ...runtime.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    CLICK_SIGNING_SECRET: randomBytes(32).toString('base64url'),
    SESSION_SECRET: randomBytes(32).toString('base64url'),
  };
  const asUser = (argv) => {
    if (process.getuid() !== 0) return argv; // not root: run as whoever runs the replay
    return [
      'setpriv',
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      '--clear-groups',
      '--',
      ...argv,
    ];
  };
  const argv = asUser(cmd);
  log(
    `starting ${cmd.join(' ')} as ${process.getuid() === 0 ? user.name : 'the current user'} on port ${port}`,
  );
  const app = spawn(argv[0], argv.slice(1), {
    cwd: runtime.dir,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) =>
    app.on('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    const deadline = Date.now() + 90_000;
    while ((await status(`${env.BASE_URL}/health/ready`)) !== 200) {
      if (app.exitCode !== null) fail(`the service exited ${app.exitCode} before it was ready`);
      if (Date.now() > deadline) fail('/health/ready did not answer 200 within 90 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    log('/health/ready: 200');
    const live = await status(`${env.BASE_URL}/health/live`);
    if (live !== 200) fail(`/health/live answered ${live}`);
    log('/health/live: 200');
    const check = asUser(JSON.parse(healthcheck));
    const probe = spawnSync(check[0], check.slice(1), { cwd: runtime.dir, env, timeout: 10_000 });
    if (probe.status !== 0) fail(`the image's HEALTHCHECK exited ${probe.status}`);
    log("the image's HEALTHCHECK command: exit 0");
  } finally {
    if (app.exitCode === null) app.kill('SIGTERM');
  }
  const stopping = Date.now();
  const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), 20_000).unref());
  const outcome = await Promise.race([exited, timeout]);
  if (outcome === 'timeout') {
    app.kill('SIGKILL');
    fail('the service did not exit within 20 s of SIGTERM');
  }
  // Nest's shutdown hooks end by raising the signal again once the drain is done, so a clean
  // stop is either exit code 0 or death by that SIGTERM (Docker reports 143).
  if (outcome.code !== 0 && outcome.signal !== 'SIGTERM') {
    fail(`the service exited ${outcome.code ?? outcome.signal} on SIGTERM`);
  }
  log(
    `SIGTERM: stopped (${outcome.signal ?? `exit ${outcome.code}`}) after ${Date.now() - stopping} ms`,
  );
}

async function main() {
  const text = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const stages = readStages(text);
  const finalUser = stages
    .at(-1)
    .instructions.filter((i) => i.getKeyword() === 'USER')
    .at(-1);
  const user = runtimeUser(finalUser?.getArgumentsContent() ?? 'root');
  if (user.name !== finalUser?.getArgumentsContent()) {
    log(
      `this machine has no user ${finalUser?.getArgumentsContent()}: running as ${user.name} instead`,
    );
  }
  const work = mkdtempSync(join(tmpdir(), 'adline-replay-'));
  chmodSync(work, 0o755); // the runtime folder is read by the unprivileged user
  const server = process.env.REPLAY_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306';
  const database = `adline_replay_${randomBytes(4).toString('hex')}`;
  const admin = await mysql.createConnection(server.replace(/^mariadb:/, 'mysql:'));
  try {
    copyContext(join(work, 'context'));
    log('build context copied (.dockerignore applied)');
    const runtime = buildStages(stages, work, join(work, 'context'), user);
    await admin.query(`CREATE DATABASE ${database}`);
    await runImage(runtime, text, user, `${server.replace(/\/+$/, '')}/${database}`);
    log(`the image would run: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.end();
    if (keep) log(`kept ${work}`);
    else execFileSync('rm', ['-rf', work]); // far faster than rmSync on 100,000 files
  }
}

main().catch((error) => {
  console.error(`replay failed: ${error.message}`);
  process.exit(1);
});
