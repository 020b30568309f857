/**
 * The dependency check of `npm test` (`npm run check:layers`): dependency-cruiser resolves imports as
 * TypeScript does (tsconfig, `.js` specifiers of `.ts` files, `import type` included) and names each
 * offending import with the rule it breaks. The rules are generated from scripts/layers.mjs.
 */
import { layerRules } from './scripts/layers.mjs';

export default {
  forbidden: layerRules(),
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.d.ts', '.js', '.mjs', '.json'] },
  },
};
