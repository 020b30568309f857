// The type-checked linter (issue 15.5): typescript-eslint's recommended-type-checked rules over every
// TypeScript file the project type-checks (tsconfig.json: src/, test/, bench/, scripts/).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Same as .prettierignore's generated files; ESLint already skips node_modules.
  { ignores: ['dist/', 'coverage/', 'src/store/fixture-validator.generated.*'] },
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // tsconfig.json for files it includes; JavaScript outside it (this file, scripts/*.mjs) gets
        // the service's default project.
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // `const { example: _e, ...rest } = schema` is how the code drops a key from a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
);
