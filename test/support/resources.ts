/**
 * Helpers of the resource tests: fresh tenants through the admin API, the account state snapshot,
 * success bodies checked against their operation's own schema, and the pinned default records.
 */
import type request from 'supertest';
import { expect } from 'vitest';
import type { MockApp } from '../../src/app.js';
import type { OperationDef } from '../../src/operations/types.js';
import { compileSchema } from '../../src/operations/validation.js';
import { sendConversions } from '../../src/resources/ads/operations.js';
import { deleteDiscount } from '../../src/resources/discounts/operations.js';
import { listInboxMessages, updateInbox } from '../../src/resources/email/operations.js';
import { createEventSession } from '../../src/resources/event-sessions/operations.js';
import { listExperiences } from '../../src/resources/experiences/operations.js';
import { createFormSubmission } from '../../src/resources/form-submissions/operations.js';
import { unlinkPriceVariantExperience } from '../../src/resources/price-variants/operations.js';
import type { CollectionRecords } from '../../src/store/records.js';
import { client, expectApiHeaders, FROZEN_AT } from './harness.js';

/** Pinned records of the default fixture (README "Default records"); `paid` has the same with `paid`. */
export const PINNED = {
  free: {
    newsletterForm: 'frm_free_newsletter',
    surveyForm: 'frm_free_survey',
    survey: {
      email: 'fld_free_survey_email',
      name: 'fld_free_survey_name',
      role: 'fld_free_survey_role',
      topics: 'fld_free_survey_topics',
    },
    inbox: 'inbox_free_support',
    course: 'exp_free_course',
    workshop: 'exp_free_workshop',
    priceVariant: 'pv_free_pro',
    discount: 'disc_free_launch',
    adAccount: 'adacct_free_main',
    destination: 'addest_free_pixel',
  },
  paid: {
    newsletterForm: 'frm_paid_newsletter',
    inbox: 'inbox_paid_support',
    course: 'exp_paid_course',
    workshop: 'exp_paid_workshop',
    priceVariant: 'pv_paid_pro',
    discount: 'disc_paid_launch',
    adAccount: 'adacct_paid_main',
    destination: 'addest_paid_pixel',
  },
  courseSlug: 'creator-course',
  workshopSlug: 'live-workshop',
  discountSlug: 'launch20',
} as const;

export type AccountState = { [K in keyof CollectionRecords]: CollectionRecords[K][] };

/** `GET /__admin/accounts/{id}` → its `state`. */
export async function stateOf(app: MockApp, accountId: string): Promise<AccountState> {
  const res = await client(app).get(`/__admin/accounts/${accountId}`);
  expect(res.status).toBe(200);
  return res.body.state as AccountState;
}

/** A fresh, isolated tenant made through `POST /__admin/accounts`. */
export async function newTenant(app: MockApp, plan: 'free' | 'paid' = 'free'): Promise<{ accountId: string; token: string }> {
  const res = await client(app).post('/__admin/accounts').send({ plan });
  expect(res.status).toBe(201);
  return { accountId: res.body.account.id as string, token: res.body.api_key.token as string };
}

/** The response is the operation's success status, with the API headers and a body its schema accepts. */
export function expectSuccess(res: request.Response, op: OperationDef): void {
  expect(res.status, JSON.stringify(res.body)).toBe(op.success.status);
  expectApiHeaders(res);
  const validate = compileSchema(op.success.schema);
  expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
}

export interface ResourceRequest {
  op: OperationDef;
  path: string;
  body?: Record<string, unknown>;
}

/** One valid request per resource operation, against the free default account's pinned records. */
export const RESOURCE_REQUESTS: ResourceRequest[] = [
  { op: createFormSubmission, path: '/v1/form_submissions', body: { form_id: PINNED.free.newsletterForm, email: 'ada@example.com' } },
  {
    op: sendConversions,
    path: '/v1/ads/conversions',
    body: {
      account_id: PINNED.free.adAccount,
      destination_id: PINNED.free.destination,
      events: [{ event_name: 'Lead', event_time: Date.parse(FROZEN_AT) / 1000, user_data: { email: 'ada@example.com' } }],
    },
  },
  { op: updateInbox, path: `/v1/email/inboxes/${PINNED.free.inbox}`, body: { display_name: 'Help desk', metadata: { crm: 'hs' } } },
  { op: listInboxMessages, path: `/v1/email/inboxes/${PINNED.free.inbox}/messages?direction=inbound` },
  { op: listExperiences, path: '/v1/experiences?type=event' },
  { op: unlinkPriceVariantExperience, path: `/v1/price_variants/${PINNED.free.priceVariant}/experiences/${PINNED.courseSlug}` },
  { op: deleteDiscount, path: `/v1/discounts/${PINNED.discountSlug}` },
  {
    op: createEventSession,
    path: `/v1/experiences/${PINNED.free.workshop}/event_sessions`,
    body: { title: 'Q&A', start_time: '2026-02-01T17:00:00Z' },
  },
];

export function send(app: MockApp, { op, path, body }: ResourceRequest, headers: Record<string, string> = {}) {
  const request = client(app)[op.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](path).set(headers);
  return body === undefined ? request : request.send(body);
}
