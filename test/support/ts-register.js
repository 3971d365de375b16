/*
 * `node -r ./test/support/ts-register.js src/main.ts`: runs the service from its TypeScript
 * sources without a build, as Jest does (swc, the same options as jest.config.js; `@/` maps
 * to src/). The e2e suites that must start the real process (SIGTERM, a broken start) use it.
 */
const { transformSync } = require('@swc/core');
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const root = path.resolve(__dirname, '../..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const mapped = request.startsWith('@/') ? path.join(root, 'src', request.slice(2)) : request;
  return resolve.call(this, mapped, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
