/**
 * Contract §4.4: the dashboard driven in a real browser (Debian's chromium through
 * playwright-core), by accessible names only. One browser for the whole file: launching it is the
 * slow part. Screenshots of each region at 1280×800 (and the whole page at a phone width) are written
 * to .screenshots/ (ignored by git), so a run never rewrites tracked files; CCM_SCREENSHOTS=docs
 * writes them to docs/screenshots/ instead, the ones the README shows, when the page's look changed.
 *
 * Waits are `waitFor`/polls with generous limits: they catch a page that never shows something,
 * they do not measure speed.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-dirs.js';
import { startMockServer, type MockServer } from '../../src/server.js';
import { ACCOUNTS, FROZEN_AT, KEYS } from '../support/harness.js';
import { startReceiver } from '../support/receiver.js';
import { WEBHOOK_DELIVERIES } from '../support/webhook-deliveries.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = path.join(PACKAGE_ROOT, process.env.CCM_SCREENSHOTS === 'docs' ? 'docs/screenshots' : '.screenshots');
/** Long enough for a loaded machine; only a page that never shows the thing reaches it. */
const WAIT_MS = 30_000;
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Everything a page did that the tests check at the end: its requests, console errors, uncaught errors. */
interface Watched {
  page: Page;
  requests: string[];
  errors: string[];
  /** The answers of journal polls (`ending_before`) refused with a 400, with their bodies. */
  refusedPolls: Array<{ url: string; body: unknown }>;
}

let browser: Browser;
let mock: MockServer;
let context: BrowserContext;
let main: Watched;

const JOURNAL_POLL = /\/__admin\/requests\?(?:[^#]*&)?ending_before=/;

function watch(page: Page): Watched {
  const watched: Watched = { page, requests: [], errors: [], refusedPolls: [] };
  page.on('request', (request) => watched.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') watched.errors.push(`${message.text()} ${message.location().url}`);
  });
  page.on('pageerror', (error) => watched.errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() !== 400 || !JOURNAL_POLL.test(response.url())) return;
    void response.json().then(
      (body: unknown) => watched.refusedPolls.push({ url: response.url(), body }),
      () => watched.refusedPolls.push({ url: response.url(), body: 'unreadable' }),
    );
  });
  return watched;
}

/** The journal's answer to a poll whose `ending_before` entry is gone (src/protocol/request-journal.ts). */
function isCursorGone(body: unknown): boolean {
  const error = (body as { error?: { param?: unknown; message?: unknown } } | null)?.error;
  return (
    error?.param === 'ending_before' &&
    typeof error.message === 'string' &&
    error.message.startsWith("Invalid value for 'ending_before': no request ")
  );
}

/**
 * The page's console errors, less the one failed load it expects: a journal poll whose cursor was
 * removed on its way (an account or sandbox reset between two polls). The journal answers 400, the
 * page starts over from the newest page (src/ui/page/main.ts, `pollJournal`), and Chromium logs the
 * 400 as a console error all the same; whether a poll falls there depends on timing (one full run in
 * about twenty saw it). Only a refusal whose answer says exactly that is let through, at most once
 * per reset the tests make; any other 400 of a poll is itself an error.
 */
function unexpectedErrors(watched: Watched, resets: number): string[] {
  const wrong = watched.refusedPolls.filter((refusal) => !isCursorGone(refusal.body));
  const expected = new Set(watched.refusedPolls.filter((refusal) => isCursorGone(refusal.body)).map((refusal) => refusal.url));
  return [
    ...wrong.map((refusal) => `a journal poll refused: ${refusal.url} ${JSON.stringify(refusal.body)}`),
    ...(expected.size > resets ? [`${expected.size} journal polls lost their cursor, after ${resets} resets`] : []),
    ...watched.errors.filter((text) => !(text.includes('status of 400') && expected.has(text.slice(text.lastIndexOf(' ') + 1)))),
  ];
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const region = (page: Page, name: string) => page.getByRole('region', { name });

/**
 * Contract-shaped answers (§5.1–§5.3) for the admin routes of findings, coverage, HAR and snapshots,
 * served only while this sandbox lacks them: each request goes to the sandbox first, and a 404 is
 * replaced by the stand-in. Once the routes land, the real answers pass through unchanged and the
 * stand-ins are never used. `served` keeps the bytes given for each path, so a download can be
 * compared with what was answered.
 */
const served = new Map<string, string>();
const STAND_INS: Array<[RegExp, (url: URL) => unknown]> = [
  [
    /^\/__admin\/coverage$/,
    (url) => ({
      object: 'coverage',
      account_id: url.searchParams.get('account_id'),
      operations: [
        {
          operation_id: 'getStatus',
          method: 'GET',
          path: '/v1/status',
          calls: 2,
          statuses: { '200': 2 },
          documented_statuses: [200, 401],
          untested_statuses: [401],
          scenarios: {},
          faults: {},
        },
        {
          operation_id: 'createProduct',
          method: 'POST',
          path: '/v1/products',
          calls: 0,
          statuses: {},
          documented_statuses: [201, 422],
          untested_statuses: [201, 422],
          scenarios: {},
          faults: {},
        },
      ],
      webhooks: {},
      summary: { operations_called: 1, operations_total: 2, statuses_seen: 1, statuses_documented: 4 },
    }),
  ],
  [
    /^\/__admin\/requests\.har$/,
    () => ({ log: { version: '1.2', creator: { name: 'creator-commerce-mock', version: '0' }, entries: [] } }),
  ],
  [
    /^\/__admin\/accounts\/[^/]+\/snapshot$/,
    (url) => ({ object: 'account_snapshot', version: 1, account: { id: decodeURIComponent(url.pathname.split('/')[3]!) } }),
  ],
];

async function serveMissingReportRoutes(target: BrowserContext | Page): Promise<void> {
  for (const [pattern, standIn] of STAND_INS) {
    await target.route(
      (url) => pattern.test(url.pathname),
      async (route) => {
        const url = new URL(route.request().url());
        const response = await route.fetch();
        const body = response.status() === 404 ? JSON.stringify(standIn(url)) : await response.text();
        served.set(url.pathname, body);
        await route.fulfill({ status: response.status() === 404 ? 200 : response.status(), contentType: 'application/json', body });
      },
    );
  }
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`the browser tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  mock = await startMockServer({ clock: FROZEN_AT, seed: 19, webhookTimeout: 600_000 });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await serveMissingReportRoutes(context);
  main = watch(await context.newPage());
});

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

describe('the dashboard in a browser (contract §4.4)', () => {
  it('contract §4.4: GET /__admin/ui shows the five regions, and the page weighs under 100 KB transferred', async () => {
    const response = await main.page.goto(`${mock.url}/__admin/ui`);
    expect(response?.status()).toBe(200);
    // The names contract §4.4 fixes, written out on purpose: a renamed region must fail here.
    for (const name of ['Clock', 'Accounts', 'Requests', 'Scenarios', 'Webhooks', 'Findings']) {
      await region(main.page, name).waitFor({ timeout: WAIT_MS });
    }
    // What the browser received for the page: its one document (script and style are inlined), headers included.
    const sizes = await response!.request().sizes();
    expect(sizes.responseBodySize + sizes.responseHeadersSize).toBeLessThan(100 * 1024);
    const loaded = main.requests.filter((url) => !url.includes('/__admin/') || url.endsWith('/__admin/ui'));
    expect(loaded).toEqual([`${mock.url}/__admin/ui`]);
  });

  it('contract §4.4: Advance by Seconds moves the sandbox clock, as the API sees it; Run and Freeze set its mode', async () => {
    const clock = region(main.page, 'Clock');
    await clock.getByText(FROZEN_AT.replace('Z', '.000Z')).or(clock.getByText(FROZEN_AT)).first().waitFor({ timeout: WAIT_MS });
    await clock.getByLabel('Seconds').fill('3600');
    await clock.getByRole('button', { name: 'Advance' }).click();
    await clock.getByText('2026-01-15T13:00:00').waitFor({ timeout: WAIT_MS });
    expect(await mock.admin.clock.get()).toMatchObject({ now: '2026-01-15T13:00:00.000Z', mode: 'frozen' });

    await clock.getByRole('button', { name: 'Run' }).click();
    await eventually(async () => (await mock.admin.clock.get()).mode === 'running', 'the clock runs');
    await clock.getByRole('button', { name: 'Freeze' }).click();
    await eventually(async () => (await mock.admin.clock.get()).mode === 'frozen', 'the clock is frozen');
    await clock.getByText('frozen', { exact: true }).waitFor({ timeout: WAIT_MS });
    // Back on a whole instant: the real milliseconds the clock ran would change every screenshot's bytes.
    await mock.admin.clock.set({ now: '2026-01-15T13:00:00Z' });
    await clock.getByText('2026-01-15T13:00:00.000Z').waitFor({ timeout: WAIT_MS });
    await clock.screenshot({ path: path.join(SCREENSHOTS, 'clock.png') });
  });

  it('contract §4.4: a request made by a client appears in Requests without reloading, and opens its request and response', async () => {
    const sent = await fetch(`${mock.apiUrl}/auth/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.free}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'from the browser test' }),
    });
    expect(sent.status).toBe(201);
    const requestId = sent.headers.get('request-id')!;
    const requests = region(main.page, 'Requests');
    const entry = requests.getByRole('listitem').filter({ hasText: 'POST /v1/auth/keys' }).first();
    await entry.waitFor({ timeout: WAIT_MS });
    await entry.getByText('/v1/auth/keys').click();
    await entry.getByText(requestId).waitFor({ timeout: WAIT_MS });
    await entry.getByText('"from the browser test"').first().waitFor({ timeout: WAIT_MS });
    await entry.getByText('Status 201').waitFor({ timeout: WAIT_MS });
    // The response body: the new key's token as … and its last four characters (spec §2.2: never returned again).
    const token = ((await sent.json()) as { token: string }).token;
    await entry.getByText(`"…${token.slice(-4)}"`).waitFor({ timeout: WAIT_MS });
    expect(await main.page.getByText(token).count()).toBe(0);

    // Filtered by status class: a 2xx filter keeps it, a 4xx one hides it.
    await requests.getByLabel('Status').selectOption('4xx');
    await entry.waitFor({ state: 'hidden', timeout: WAIT_MS });
    await requests.getByLabel('Status').selectOption('2xx');
    await entry.waitFor({ timeout: WAIT_MS });
    // Filtered by account: the free account's request stays, the paid account's list has none of it.
    await requests.getByLabel('Account').selectOption(ACCOUNTS.paid);
    await entry.waitFor({ state: 'detached', timeout: WAIT_MS });
    await requests.getByLabel('Account').selectOption(ACCOUNTS.free);
    await requests.getByRole('listitem').filter({ hasText: 'POST /v1/auth/keys' }).first().waitFor({ timeout: WAIT_MS });
    // A few more answers for the screenshots: a 404, a 401, a read.
    await fetch(`${mock.apiUrl}/nowhere`, { headers: { Authorization: `Bearer ${KEYS.free}` } });
    await fetch(`${mock.apiUrl}/status`, { headers: { Authorization: 'Bearer cc_test_unknown' } });
    await fetch(`${mock.apiUrl}/status`, { headers: { Authorization: `Bearer ${KEYS.free}` } });
    await requests.getByLabel('Status').selectOption('');
    await requests.getByLabel('Account').selectOption('');
    await requests.getByRole('listitem').filter({ hasText: 'GET /v1/status' }).first().waitFor({ timeout: WAIT_MS });
    await requests.getByRole('listitem').filter({ hasText: '401' }).first().waitFor({ timeout: WAIT_MS });
    await requests.screenshot({ path: path.join(SCREENSHOTS, 'requests.png') });
    await main.page.evaluate('window.scrollTo(0, 0)');
    await main.page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard.png') });
  });

  it('contract §4.4: Activate a scenario with a scope and times, see what remains, Deactivate it', async () => {
    const scenarios = region(main.page, 'Scenarios');
    await scenarios.getByLabel('Scenario').selectOption('server-error');
    await scenarios.getByLabel('Account').selectOption(ACCOUNTS.free);
    await scenarios.getByLabel('Times').fill('2');
    await scenarios.getByRole('button', { name: 'Activate' }).click();
    const active = scenarios.getByRole('listitem').filter({ hasText: 'server-error' });
    await active.getByText('2 times left', { exact: false }).waitFor({ timeout: WAIT_MS });
    const [activation] = (await mock.admin.scenarios.list()).active;
    expect(activation).toMatchObject({ name: 'server-error', account_id: ACCOUNTS.free, remaining: 2 });

    // One matching request uses one of the two times; the page shows what remains.
    await fetch(`${mock.apiUrl}/status`, { headers: { Authorization: `Bearer ${KEYS.free}` } });
    await active.getByText('1 time left', { exact: false }).waitFor({ timeout: WAIT_MS });
    await scenarios.screenshot({ path: path.join(SCREENSHOTS, 'scenarios.png') });

    await active.getByRole('button', { name: 'Deactivate' }).click();
    await active.waitFor({ state: 'detached', timeout: WAIT_MS });
    expect((await mock.admin.scenarios.list()).active).toEqual([]);
  });

  it('contract §4.4: an account opens its plan, clock and state as JSON; Reset restores it', async () => {
    const accounts = region(main.page, 'Accounts');
    const account = accounts.getByRole('listitem').filter({ hasText: ACCOUNTS.free }).first();
    await account.waitFor({ timeout: WAIT_MS });
    await account.getByText(ACCOUNTS.free, { exact: true }).click();
    await account.getByText('api_keys', { exact: true }).waitFor({ timeout: WAIT_MS });
    await accounts.screenshot({ path: path.join(SCREENSHOTS, 'accounts.png') });
    // The key created above is gone after Reset (contract §4.1).
    const keyCount = async () => ((await mock.admin.accounts.get(ACCOUNTS.free)).state.api_keys ?? []).length;
    const before = await keyCount();
    await account.getByRole('button', { name: `Reset ${ACCOUNTS.free}` }).click();
    await eventually(async () => (await keyCount()) < before, 'the account is reset');
  });

  it('contract §4.4, §4.3: a delivery to a real receiver appears in Webhooks, opens its attempts, and stays open as a retry arrives', async () => {
    // The first attempt gets a 500, the retry (5 s later on the clock) a 204.
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 204));
    try {
      await mock.admin.webhooks.createEndpoint({ account_id: ACCOUNTS.paid, url: receiver.url, events: ['form_submission.created'] });
      const event = await mock.admin.webhooks.trigger({ account_id: ACCOUNTS.paid, type: 'form_submission.created' });
      const [arrival] = await receiver.received(1);
      expect(arrival!.json.id).toBe(event.id);
      // A clock call by 0 s answers once the attempt under way is on record.
      await mock.admin.clock.advance(0);
      const delivered = (await mock.admin.webhooks.deliveries({ account_id: ACCOUNTS.paid })).data.find((d) => d.event.id === event.id)!;
      expect(delivered.attempts).toHaveLength(1);

      const webhooks = region(main.page, 'Webhooks');
      const item = webhooks.getByRole('listitem').filter({ hasText: 'form_submission.created' });
      await item.filter({ hasText: '1 attempt' }).waitFor({ timeout: WAIT_MS });
      await item.getByText('form_submission.created', { exact: true }).click();
      const attempts = item.getByRole('table', { name: `Attempts of ${delivered.id}` });
      await attempts.waitFor({ timeout: WAIT_MS });
      // A header row and the failed attempt.
      expect(await attempts.getByRole('row').count()).toBe(2);
      expect(await attempts.getByRole('row').nth(1).textContent()).toContain('500');

      // The retry: the list is redrawn with it, and the delivery the user opened stays open.
      await mock.admin.clock.advance(5);
      await item.filter({ hasText: '2 attempts' }).waitFor({ timeout: WAIT_MS });
      await attempts.waitFor({ timeout: WAIT_MS });
      expect(await attempts.getByRole('row').count()).toBe(3);
      expect(await attempts.getByRole('row').nth(2).textContent()).toContain('204');
    } finally {
      await receiver.close();
    }
  });

  it('contract §4.4: the Webhooks region lists deliveries and opens their attempts (the shape of GET /__admin/webhook_deliveries, answered by the test)', async () => {
    const page = await context.newPage();
    const watched = watch(page);
    await page.route('**/__admin/webhook_deliveries?*', (route) => route.fulfill({ json: WEBHOOK_DELIVERIES }));
    await page.goto(`${mock.url}/__admin/ui`);
    const webhooks = region(page, 'Webhooks');
    const delivery = webhooks.getByRole('listitem').filter({ hasText: 'job.completed' });
    await delivery.getByText('job.completed', { exact: true }).click();
    await delivery.getByRole('table', { name: 'Attempts of wd_000000000001' }).waitFor({ timeout: WAIT_MS });
    expect(await delivery.getByRole('row').count()).toBe(3);
    await webhooks.screenshot({ path: path.join(SCREENSHOTS, 'webhooks.png') });
    await page.close();
    expect(unexpectedErrors(watched, 0)).toEqual([]);
  });

  it('contract §4.4: the Webhooks region is in view at 1280×800 without scrolling', async () => {
    const page = await context.newPage();
    await page.goto(`${mock.url}/__admin/ui`);
    const webhooks = region(page, 'Webhooks');
    await webhooks.getByRole('button', { name: 'Trigger event' }).waitFor({ timeout: WAIT_MS });
    expect(await page.evaluate<number>('window.scrollY')).toBe(0);
    // Its heading and its controls: the whole Trigger event row lies inside the first screen.
    const heading = await webhooks.getByRole('heading', { name: 'Webhooks' }).boundingBox();
    const trigger = await webhooks.getByRole('button', { name: 'Trigger event' }).boundingBox();
    expect(heading!.y).toBeGreaterThanOrEqual(0);
    expect(trigger!.y + trigger!.height).toBeLessThanOrEqual(800);
    await page.close();
  });

  it('contract §4.4: every account picker shows the account name beside its id', async () => {
    const { account } = await mock.admin.accounts.get(ACCOUNTS.free);
    expect(account.name).toBeTruthy();
    for (const name of ['Requests', 'Scenarios', 'Webhooks']) {
      const picker = region(main.page, name).getByLabel('Account');
      const option = picker.getByRole('option', { name: `${ACCOUNTS.free} — ${account.name}` });
      await eventually(async () => (await option.count()) === 1, `the ${name} picker names ${ACCOUNTS.free}`);
      expect(await option.getAttribute('value')).toBe(ACCOUNTS.free);
    }
  });

  it("contract §4.4: choosing a scenario shows what its params take, from the scenario's declaration", async () => {
    const scenarios = region(main.page, 'Scenarios');
    const declared = (await mock.admin.scenarios.list()).available.find((scenario) => scenario.name === 'rate-limited')!;
    expect(Object.keys(declared.params ?? {})).toEqual(['retry_after']);
    await scenarios.getByLabel('Scenario').selectOption('rate-limited');
    const params = scenarios.getByLabel('Params (JSON)');
    const hint = main.page.locator(`#${await params.getAttribute('aria-describedby')}`);
    await hint.getByText('retry_after').waitFor({ timeout: WAIT_MS });
    expect(await hint.textContent()).toContain('integer or null, 0–86400, default null');
    expect(await params.getAttribute('placeholder')).toBe('{"retry_after":null}');
    await scenarios.getByLabel('Scenario').selectOption('server-error');
    await hint.getByText('server-error takes no params.').waitFor({ timeout: WAIT_MS });
  });

  it("contract §4.1, §4.4: an account's own clock, from the page: own clock, Freeze, Advance, Set, Run", async () => {
    // A new account: the accounts the other tests use stay on the sandbox clock.
    const { account } = await mock.admin.accounts.create({});
    const id = account.id;
    const sandboxNow = (await mock.admin.clock.get()).now;
    const accounts = region(main.page, 'Accounts');
    const item = accounts.getByRole('listitem').filter({ hasText: id }).first();
    await item.getByText(id, { exact: true }).click();
    await item.getByRole('button', { name: `Own clock for ${id}` }).click();
    await eventually(async () => !(await mock.admin.accounts.clock(id).get()).shared, 'the account has its own clock');
    await item.getByText('own clock)').waitFor({ timeout: WAIT_MS });

    await item.getByRole('button', { name: `Freeze clock of ${id}` }).click();
    await item.getByText('(frozen, own clock)').waitFor({ timeout: WAIT_MS });
    const frozenAt = (await mock.admin.accounts.clock(id).get()).now;
    const shown = item.locator(`time[data-clock-of="${id}"]`);
    expect(await shown.textContent()).toBe(frozenAt);

    await item.getByLabel(`Seconds to advance ${id}`).fill('3600');
    await item.getByRole('button', { name: `Advance clock of ${id}` }).click();
    const advanced = new Date(Date.parse(frozenAt) + 3_600_000).toISOString();
    await item.getByText(advanced).waitFor({ timeout: WAIT_MS });
    expect(await mock.admin.accounts.clock(id).get()).toMatchObject({ now: advanced, mode: 'frozen', shared: false });
    // The sandbox clock did not move.
    expect((await mock.admin.clock.get()).now).toBe(sandboxNow);

    await item.getByLabel(`Time for ${id}`).fill('2030-01-01T00:00:00Z');
    await item.getByRole('button', { name: `Set clock of ${id}` }).click();
    await item.getByText('2030-01-01T00:00:00.000Z').waitFor({ timeout: WAIT_MS });
    await accounts.screenshot({ path: path.join(SCREENSHOTS, 'account-clock.png') });

    await item.getByRole('button', { name: `Run clock of ${id}` }).click();
    await eventually(async () => (await mock.admin.accounts.clock(id).get()).mode === 'running', 'the account clock runs');
    await item.getByText('(running, own clock)').waitFor({ timeout: WAIT_MS });
    await item.getByRole('button', { name: `Freeze clock of ${id}` }).click();
    await eventually(async () => (await mock.admin.accounts.clock(id).get()).mode === 'frozen', 'the account clock is frozen again');
  });

  it('contract §4.3, §4.4: Create endpoint and Trigger event for an account; the delivery appears in Webhooks', async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const webhooks = region(main.page, 'Webhooks');
      await webhooks.getByLabel('Account').selectOption(ACCOUNTS.free);
      await webhooks.getByLabel('Endpoint URL').fill(receiver.url);
      await webhooks.getByLabel('Events').fill('customer.created');
      await webhooks.getByRole('button', { name: 'Create endpoint' }).click();
      const endpoints = webhooks.getByRole('list', { name: `Endpoints of ${ACCOUNTS.free}` });
      await endpoints.getByText(receiver.url).waitFor({ timeout: WAIT_MS });
      const [endpoint] = (await mock.admin.webhooks.listEndpoints({ account_id: ACCOUNTS.free })).data;
      expect(endpoint).toMatchObject({ url: receiver.url, events: ['customer.created'] });
      await webhooks.getByText(`Created endpoint ${endpoint!.id} for ${ACCOUNTS.free}`, { exact: false }).waitFor({ timeout: WAIT_MS });

      await webhooks.getByLabel('Event type').selectOption('customer.created');
      await webhooks.getByRole('button', { name: 'Trigger event' }).click();
      const [arrival] = await receiver.received(1);
      expect(arrival!.json).toMatchObject({ type: 'customer.created', account_id: ACCOUNTS.free });
      await webhooks.getByText(`Triggered customer.created (${arrival!.json.id})`, { exact: false }).waitFor({ timeout: WAIT_MS });
      const delivery = webhooks.getByRole('listitem').filter({ hasText: 'customer.created' }).filter({ hasText: endpoint!.id });
      await delivery.filter({ hasText: 'succeeded' }).waitFor({ timeout: WAIT_MS });
      await webhooks.screenshot({ path: path.join(SCREENSHOTS, 'webhook-controls.png') });
    } finally {
      await receiver.close();
    }
  });

  it('contract §4.4: instants never wrap, at 1280 px and at a phone width', async () => {
    const wrapped =
      "[...document.querySelectorAll('time, .instant')].filter((e) => e.getClientRects().length > 1).map((e) => e.textContent)";
    const count = "document.querySelectorAll('time, .instant').length";
    // The main page: requests, accounts and deliveries on show, one opened with its attempts.
    expect(await main.page.evaluate<number>(count)).toBeGreaterThan(3);
    expect(await main.page.evaluate<string[]>(wrapped)).toEqual([]);
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${mock.url}/__admin/ui`);
    await region(phone, 'Requests').getByRole('listitem').first().waitFor({ timeout: WAIT_MS });
    await region(phone, 'Webhooks').getByRole('listitem').first().waitFor({ timeout: WAIT_MS });
    await region(phone, 'Webhooks').getByRole('listitem').first().locator('summary').first().click();
    expect(await phone.evaluate<number>(count)).toBeGreaterThan(3);
    expect(await phone.evaluate<string[]>(wrapped)).toEqual([]);
    await phone.close();
  });

  it('contract §4.4: readable at a phone width (390 px): no region wider than the screen', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${mock.url}/__admin/ui`);
    await region(page, 'Webhooks').waitFor({ timeout: WAIT_MS });
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'phone-390.png'), fullPage: true });
    await page.close();
  });

  it('contract §4.4: keyboard reachable: Tab lands on the controls with a visible focus ring', async () => {
    await main.page.keyboard.press('Tab');
    // Evaluated in the page (a string: this file is type-checked without the DOM library).
    const outline = await main.page.evaluate<string>(
      "document.activeElement && document.activeElement !== document.body ? getComputedStyle(document.activeElement).outlineStyle : 'none'",
    );
    expect(outline).toBe('solid');
  });

  it('no console errors, and every request the page made went to the sandbox', () => {
    // The main page saw one account reset (its Reset button) before this test.
    expect(unexpectedErrors(main, 1)).toEqual([]);
    expect(main.requests.length).toBeGreaterThan(0);
    expect(main.requests.filter((url) => new URL(url).origin !== mock.url)).toEqual([]);
  });
});

describe('findings, coverage and downloads in the dashboard (contract §5.1–§5.3)', () => {
  it('contract §5.1: a finding opens its requests and shows them in Requests, where the entry that raised it is marked', async () => {
    const get = async (path: string, headers: Record<string, string> = {}) =>
      (await fetch(`${mock.apiUrl}${path}`, { headers: { Authorization: `Bearer ${KEYS.free}`, ...headers } })).headers.get('request-id')!;
    // A real finding, raised by the sandbox: a request sent right after a 429 asking to wait 30 s.
    const first = await get('/status', { Prefer: 'scenario=rate-limited; retry_after=30' });
    const second = await get('/status');
    const other = await get('/status');
    const [finding] = (await mock.admin.findings.list({ account_id: ACCOUNTS.free, rule: 'retry-after-ignored', limit: 1 })).data;
    expect(finding?.request_ids).toEqual([first, second]);
    const page = await context.newPage();
    const watched = watch(page);
    await page.goto(`${mock.url}/__admin/ui`);
    const requests = region(page, 'Requests');
    await requests.locator(`[data-request-id="${other}"]`).waitFor({ timeout: WAIT_MS });
    // The entry of the request that completed it lists it in `finding_ids` and is marked; the 429 before it and the request after are not.
    await requests.locator(`[data-request-id="${second}"]`).getByRole('img', { name: 'raised a finding' }).waitFor({ timeout: WAIT_MS });
    for (const unmarked of [first, other]) {
      expect(await requests.locator(`[data-request-id="${unmarked}"]`).getByRole('img', { name: 'raised a finding' }).count()).toBe(0);
    }

    const findings = region(page, 'Findings');
    const item = findings.getByRole('listitem').filter({ hasText: finding!.message });
    await item.getByText('error', { exact: true }).waitFor({ timeout: WAIT_MS });
    await item.getByText('retry-after-ignored', { exact: true }).click();
    await item.getByText('Section').waitFor({ timeout: WAIT_MS });
    await findings.screenshot({ path: path.join(SCREENSHOTS, 'findings.png') });
    await item.getByRole('button', { name: `Show requests of ${finding!.id}` }).click();
    // Only its two requests are shown, and the way back to the whole journal.
    await eventually(async () => (await requests.locator('li.entry:not([hidden])').count()) === 2, "only the finding's two requests shown");
    const shown = await requests
      .locator('li.entry:not([hidden])')
      .evaluateAll((items) => items.map((li) => li.getAttribute('data-request-id')));
    expect(shown.sort()).toEqual([first, second].sort());
    await requests.getByText(`Only the requests of ${finding!.id}`).waitFor({ timeout: WAIT_MS });
    await requests.getByRole('button', { name: 'Show all requests' }).click();
    await requests.locator(`li.entry[data-request-id="${other}"]:not([hidden])`).waitFor({ timeout: WAIT_MS });
    // The bar that said so goes with it (a class setting `display` once kept it on screen).
    await requests.getByText(`Only the requests of ${finding!.id}`).waitFor({ state: 'hidden', timeout: WAIT_MS });
    await page.close();
    expect(unexpectedErrors(watched, 0)).toEqual([]);
  });

  it('contract §5.2, §5.3: an opened account shows its coverage, and Download HAR and Download snapshot save what the admin API answers', async () => {
    const page = await context.newPage();
    const watched = watch(page);
    await page.goto(`${mock.url}/__admin/ui`);
    const accounts = region(page, 'Accounts');
    const account = accounts.getByRole('listitem').filter({ hasText: ACCOUNTS.paid }).first();
    await account.getByText(ACCOUNTS.paid, { exact: true }).click();
    await account.getByText('Coverage', { exact: true }).click();
    const table = account.getByRole('table', { name: `Coverage of ${ACCOUNTS.paid}` });
    await table.waitFor({ timeout: WAIT_MS });
    // A header row and one per /v1 operation the answer lists.
    expect(await table.getByRole('row').count()).toBeGreaterThan(1);
    await accounts.screenshot({ path: path.join(SCREENSHOTS, 'account-coverage.png') });

    for (const [name, file, route] of [
      [`Download HAR of ${ACCOUNTS.paid}`, `${ACCOUNTS.paid}.har`, '/__admin/requests.har'],
      [`Download snapshot of ${ACCOUNTS.paid}`, `${ACCOUNTS.paid}.snapshot.json`, `/__admin/accounts/${ACCOUNTS.paid}/snapshot`],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), account.getByRole('button', { name }).click()]);
      expect(download.suggestedFilename()).toBe(file);
      const saved = readFileSync(await download.path(), 'utf8');
      expect(saved).toBe(served.get(route));
    }
    await page.close();
    expect(unexpectedErrors(watched, 0)).toEqual([]);
  });
});

describe('the live Requests list after a sandbox reset (contract §4.4)', () => {
  it('contract §4.4: after POST /__admin/reset (request ids restart) the list shows the new journal, not the old entries', async () => {
    const requests = region(main.page, 'Requests');
    const get = (path: string) => fetch(`${mock.apiUrl}${path}`, { headers: { Authorization: `Bearer ${KEYS.free}` } });
    await get('/before-the-reset');
    await requests.getByText('/v1/before-the-reset').first().waitFor({ timeout: WAIT_MS });
    await mock.admin.reset();
    // More requests than the journal held before: the new ids pass the old ones (req_…1 again and on).
    for (let i = 0; i < 12; i++) await get('/status');
    await requests.getByText('/v1/before-the-reset').first().waitFor({ state: 'detached', timeout: WAIT_MS });
    await eventually(async () => (await requests.getByRole('listitem').count()) === 12, 'the 12 requests after the reset, and only they');
  });
});

describe('the dashboard with an admin token configured (contract §4.4)', () => {
  it('contract §4.4, §5.3: the page asks for the token once, keeps it in the tab, shows the sandbox, and sends it with a download', async () => {
    const guarded = await startMockServer({ clock: FROZEN_AT, adminToken: 'open-sesame' });
    try {
      const page = await context.newPage();
      const watched = watch(page);
      await page.goto(`${guarded.url}/__admin/ui`);
      await page.getByLabel('Admin token').fill('open-sesame');
      await page.getByRole('button', { name: 'Use token' }).click();
      await region(page, 'Clock').getByText(FROZEN_AT.slice(0, 19)).waitFor({ timeout: WAIT_MS });
      expect(await page.evaluate<string[]>('Object.values(sessionStorage)')).toEqual(['open-sesame']);
      // Asked once: a reload of the tab finds the token and asks no more.
      await page.reload();
      await region(page, 'Clock').getByText(FROZEN_AT.slice(0, 19)).waitFor({ timeout: WAIT_MS });
      expect(await page.getByLabel('Admin token').isVisible()).toBe(false);
      // A download is a fetch too (a plain link could not send the header): it carries the token.
      const account = region(page, 'Accounts').getByRole('listitem').filter({ hasText: ACCOUNTS.free }).first();
      await account.getByText(ACCOUNTS.free, { exact: true }).click();
      const sent = page.waitForRequest((request) => request.url().endsWith(`/__admin/accounts/${ACCOUNTS.free}/snapshot`));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        account.getByRole('button', { name: `Download snapshot of ${ACCOUNTS.free}` }).click(),
      ]);
      expect((await sent).headers()['x-admin-token']).toBe('open-sesame');
      expect(download.suggestedFilename()).toBe(`${ACCOUNTS.free}.snapshot.json`);
      await page.close();
      // The 401s before the token was given are the browser's own "failed to load" lines; nothing else.
      expect(unexpectedErrors(watched, 0).filter((text) => !text.includes('401'))).toEqual([]);
    } finally {
      await guarded.close();
    }
  });
});
