/**
 * Contract §5.3: the HAR export opens in a browser. Chromium (Debian's, through playwright-core)
 * loads a page whose every request is answered from the exported file (Playwright's `routeFromHAR`,
 * which reads HAR 1.2 as browsers export it), so the page shows the body the sandbox sent.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bearer, KEYS, startServer } from '../support/harness.js';

const CHROMIUM = '/usr/bin/chromium';

describe('the HAR export in a browser (contract §5.3)', () => {
  it('contract §5.3: Chromium replays an exchange from the exported HAR: same status, same body', async () => {
    const mock = await startServer();
    const dir = mkdtempSync(path.join(tmpdir(), 'ccm-har-'));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const sent = await fetch(`${mock.apiUrl}/status`, { headers: bearer(KEYS.free) });
      const body = await sent.text();
      const file = path.join(dir, 'session.har');
      writeFileSync(file, await (await fetch(`${mock.url}/__admin/requests.har`)).text());
      // The sandbox is closed first: what the page gets can only come from the file.
      await mock.close();
      const context = await browser.newContext();
      await context.routeFromHAR(file, { notFound: 'abort' });
      const page = await context.newPage();
      const answer = await page.goto(`${mock.apiUrl}/status`);
      expect(answer?.status()).toBe(200);
      expect(JSON.parse(await answer!.text())).toEqual(JSON.parse(body));
      expect(answer?.headers()['request-id']).toBe(sent.headers.get('request-id'));
    } finally {
      await browser.close();
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
