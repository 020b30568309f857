/** Contract §4.4: the dashboard ships bundled in the package; the checked-in bundle is what src/ui/page/ builds now. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_ASSETS_FILE, dashboardAssetsSource } from '../../scripts/dashboard-assets.js';

describe('the dashboard assets (contract §4.4)', () => {
  it('contract §4.4: src/ui/dashboard-assets.generated.ts is up to date with src/ui/page/ (run `npm run generate` after changing the page)', () => {
    expect(readFileSync(DASHBOARD_ASSETS_FILE, 'utf8')).toBe(dashboardAssetsSource());
  });
});
