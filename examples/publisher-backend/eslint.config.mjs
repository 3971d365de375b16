// This example is plain JavaScript outside the TypeScript project, so the root config's
// type-aware rules cannot parse it. ESLint uses the config nearest to each file.
import js from '@eslint/js';

export default [
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        AbortSignal: 'readonly',
        console: 'readonly',
        fetch: 'readonly',
        process: 'readonly',
      },
    },
    rules: { eqeqeq: ['error', 'always'] },
  },
];
