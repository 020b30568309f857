/** Helpers for the job tests: create a crawl, poll it, move the clock, read the admin state. */
import type request from 'supertest';
import { expect } from 'vitest';
import { compileSchema } from '../../src/operations/validation.js';
import { getJob } from '../../src/resources/jobs/operations.js';
import { crawlSite } from '../../src/resources/web/operations.js';
import { bearer, client, expectApiHeaders, expectError } from './harness.js';

const validCreated = compileSchema(crawlSite.success.schema);
const validJob = compileSchema(getJob.success.schema);

export type Client = ReturnType<typeof client>;

/** `POST /v1/web/crawl`, asserting the 201 and the body against the operation's own schema. */
export async function createCrawl(c: Client, token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await c.post('/v1/web/crawl').set(bearer(token)).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expectApiHeaders(res);
  expect(validCreated(res.body), JSON.stringify(validCreated.errors)).toBe(true);
  return res.body;
}

/** `GET /v1/jobs/{id}`, asserting the 200 and the body against the operation's own schema. */
export async function pollJob(c: Client, token: string, id: string): Promise<Record<string, any>> {
  const res = await c.get(`/v1/jobs/${id}`).set(bearer(token));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectApiHeaders(res);
  expect(validJob(res.body), JSON.stringify(validJob.errors)).toBe(true);
  return res.body;
}

/** `GET /v1/jobs/{id}` answering 404 `resource_missing` for a well-formed job id. */
export async function expectNoSuchJob(c: Client, token: string, id: string): Promise<void> {
  expectError(await c.get(`/v1/jobs/${id}`).set(bearer(token)), 'resource_missing', { param: 'id', message: `No such job: '${id}'.` });
}

export async function advance(c: Client, seconds: number): Promise<void> {
  const res = await c.post('/__admin/clock/advance').send({ seconds });
  expect(res.status).toBe(200);
}

/** `GET /__admin/accounts/{id}`: the account's credits and stored jobs. */
export async function accountState(c: Client, accountId: string): Promise<{ credits: { balance: number; used: number }; jobs: any[] }> {
  const res: request.Response = await c.get(`/__admin/accounts/${accountId}`);
  expect(res.status).toBe(200);
  return res.body.state;
}

export function pagesOf(job: Record<string, any>): Array<Record<string, any>> {
  return job.result.pages;
}
