// This example is plain JavaScript outside the TypeScript project, so the root config's
// type-aware rules cannot parse it. ESLint uses the config nearest to each file.
import js from '@eslint/js';

const nodeGlobals = ['console', 'fetch', 'process'];

export default [
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: Object.fromEntries([...nodeGlobals, 'URL'].map((name) => [name, 'readonly'])),
    },
    rules: { eqeqeq: ['error', 'always'] },
  },
];
