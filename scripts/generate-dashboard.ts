/** Writes src/ui/dashboard-assets.generated.ts (see scripts/dashboard-assets.ts). Run by `npm run generate`. */
import { writeFileSync } from 'node:fs';
import { DASHBOARD_ASSETS_FILE, dashboardAssetsSource } from './dashboard-assets.js';

writeFileSync(DASHBOARD_ASSETS_FILE, dashboardAssetsSource());
process.stdout.write(`wrote ${DASHBOARD_ASSETS_FILE}\n`);
