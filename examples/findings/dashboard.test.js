/**
 * The same finding in the dashboard (GET /__admin/ui), driven in a real browser by accessible names:
 * the hasty client ignores a Retry-After, the Findings region lists what it earned, opening the
 * finding shows its requests, and "Show in Requests" narrows the journal to them, where the entry
 * that raised it is marked. Chromium is Debian's (`apt-get install chromium`), driven by
 * playwright-core; CHROMIUM names another binary.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { connectToMock, useTenant } from 'creator-commerce-mock/vitest';
import { createClient } from './api-client.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Only a page that never shows the thing reaches it; a busy machine does not. */
const WAIT_MS = 30_000;

const mock = connectToMock(inject('creatorCommerceMock'));
const tenant = useTenant(mock, { plan: 'paid' });
let browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
});

afterAll(async () => {
  await browser?.close();
});

it('contract §5.1: the Findings region shows the finding, and its requests in Requests, where the entry that raised it is marked', async () => {
  await mock.admin.scenarios.activate({ name: 'rate-limited', account_id: tenant.id, times: 1, params: { retry_after: 30 } });
  await createClient({ baseUrl: mock.apiUrl, apiKey: tenant.token, policy: 'hasty' }).status();
  const [finding] = (await tenant.findings({ rule: 'retry-after-ignored' })).data;
  expect(finding.request_ids).toHaveLength(2);
  const [limited, retried] = finding.request_ids;

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${mock.url}/__admin/ui`);

  // Other test files share this sandbox: the finding is found by its message, which names its requests.
  const findings = page.getByRole('region', { name: 'Findings' });
  const item = findings.getByRole('listitem').filter({ hasText: finding.message });
  await item.getByText('error', { exact: true }).waitFor({ timeout: WAIT_MS });
  await item.getByText('retry-after-ignored', { exact: true }).click();
  await item.getByText('spec §8', { exact: true }).waitFor({ timeout: WAIT_MS });
  await item.getByText('2 requests').waitFor({ timeout: WAIT_MS });

  await item.getByRole('button', { name: `Show requests of ${finding.id}` }).click();
  const requests = page.getByRole('region', { name: 'Requests' });
  await requests.getByText(`Only the requests of ${finding.id}`).waitFor({ timeout: WAIT_MS });
  const shown = requests.getByRole('list', { name: 'Journal entries, newest first' }).getByRole('listitem');
  await expect.poll(() => shown.count(), { timeout: WAIT_MS }).toBe(2);
  // Newest first: the retry sent too soon completed the finding, so its entry carries the mark.
  expect(await shown.evaluateAll((items) => items.map((li) => li.getAttribute('data-request-id')))).toEqual([retried, limited]);
  await shown.first().getByRole('img', { name: 'raised a finding' }).waitFor({ timeout: WAIT_MS });
  expect(await shown.last().getByRole('img', { name: 'raised a finding' }).count()).toBe(0);
  expect(await shown.first().innerText()).toContain('200');
  expect(await shown.last().innerText()).toContain('429');

  await requests.getByRole('button', { name: 'Show all requests' }).click();
  await requests.getByText(`Only the requests of ${finding.id}`).waitFor({ state: 'hidden', timeout: WAIT_MS });
  await page.close();
  expect(errors).toEqual([]);
});
