// The type-checked linter: typescript-eslint's recommended-type-checked rules over every
// TypeScript file the project type-checks (tsconfig.json: src/, test/, bench/, scripts/).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Same as .prettierignore's generated files; ESLint already skips node_modules. examples/ holds
  // client projects in plain JavaScript and Python, each proven by running it (test/package/recipes.test.ts).
  {
    ignores: ['dist/', 'coverage/', 'examples/', 'src/fixture/fixture-validator.generated.*', 'src/ui/dashboard-assets.generated.ts'],
  },
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // tsconfig.json for files it includes; JavaScript outside it (this file, scripts/*.mjs) gets
        // the service's default project.
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', 'bench/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // `const { example: _e, ...rest } = schema` is how the code drops a key from a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // Supertest bodies are `any` by design (`res.body.data.map(...)`): tests read them to assert on
    // them, and the contract setup checks every /v1 body against the OpenAPI document. src/ keeps these.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // The helpers that hand those bodies on (test/support/jobs.ts, scenarios.ts) keep the same `any`.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
