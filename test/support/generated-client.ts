/**
 * What a client team does with `GET /openapi.json`: generate types with
 * openapi-typescript, call the API through openapi-fetch, and compile under `strict`. The program
 * below calls every operation with the bodies the README shows and reads typed members of each
 * answer, so a schema that generates `unknown`, `Record<string, never>` or a missing component name
 * fails to compile.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `typed(x)` compiles only when `x` has a real type: `any` and `unknown` are refused, so an answer
 * member that a generator could not type is caught here and not in a client's code.
 */
const PROGRAM = String.raw`
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

type Schemas = components['schemas'];
type Typed<T> = 0 extends 1 & T ? never : unknown extends T ? never : T;
function typed<T>(value: Typed<T>): T {
  return value as T;
}

const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v1', headers: { Authorization: 'Bearer cc_test_free_default_key' } });

export async function callEveryOperation(): Promise<string[]> {
  const seen: string[] = [];

  const created = await api.POST('/auth/keys', { body: { name: 'ci' } });
  if (created.data) {
    const key: Schemas['ApiKey'] = created.data;
    seen.push(typed(key.last4));
  }
  if (created.error) seen.push(typed(created.error.error.code), typed(created.error.error.message));

  const keys = await api.GET('/auth/keys', { params: { query: { limit: 10 } } });
  if (keys.data) {
    const page: Schemas['ApiKeyList'] = keys.data;
    for (const key of page.data) seen.push(typed(key.id));
  }

  const status = await api.GET('/status');
  if (status.data) {
    const report: Schemas['StatusReport'] = status.data;
    seen.push(String(typed(report.limits.rate_limit.remaining)));
  }

  const crawl = await api.POST('/web/crawl', { body: { url: 'https://example.com/', max_pages: 8 }, headers: { 'Idempotency-Key': 'crawl-1' } });
  if (crawl.data) {
    const job: Schemas['Job'] = crawl.data;
    const polled = await api.GET('/jobs/{id}', { params: { path: { id: job.id } } });
    if (polled.data) {
      const same: Schemas['Job'] = polled.data;
      seen.push(typed(same.status));
      if (same.result) for (const page of same.result.pages) seen.push(typed(page.markdown));
    }
  }

  const submission = await api.POST('/form_submissions', {
    body: {
      form_id: 'frm_free_survey',
      email: 'sam@example.com',
      answers: { fld_free_survey_role: 'Side project', fld_free_survey_topics: ['Video'], fld_free_survey_score: 9, consent: true },
    },
  });
  if (submission.data) {
    const saved: Schemas['FormSubmission'] = submission.data;
    for (const answer of saved.answers) seen.push(typed(answer.value));
  }

  const conversions = await api.POST('/ads/conversions', {
    body: {
      account_id: 'adacct_free_main',
      destination_id: 'addest_free_pixel',
      test_code: 'TEST123',
      // action_source is left out: a member with a default stays optional in a request.
      events: [
        {
          event_name: 'Purchase',
          event_time: 1768478400,
          event_id: 'order_1001',
          user_data: { email: 'ada@example.com', client_ip_address: '192.0.2.10', client_user_agent: 'Mozilla/5.0' },
          custom_data: { value: 49, currency: 'USD', coupon: 'LAUNCH20' },
        },
      ],
    },
  });
  if (conversions.data) {
    const result: Schemas['ConversionResult'] = conversions.data;
    seen.push(JSON.stringify(result));
  }
  type ConversionsBody = NonNullable<paths['/ads/conversions']['post']['requestBody']>['content']['application/json'];
  type ClientIpAddress = NonNullable<NonNullable<ConversionsBody['events'][number]['user_data']>['client_ip_address']>;
  seen.push(typed<ClientIpAddress>('2001:db8::10'));

  // The README's PATCH body: a metadata key set, another removed with null.
  const inbox = await api.PATCH('/email/inboxes/{id}', {
    params: { path: { id: 'inbox_free_support' } },
    body: { display_name: 'Help desk', metadata: { crm: 'hubspot', sla_hours: null } },
  });
  if (inbox.data) {
    const updated: Schemas['Inbox'] = inbox.data;
    seen.push(typed(updated.address), String(updated.metadata.crm));
  }

  const messages = await api.GET('/email/inboxes/{inbox_id}/messages', {
    params: { path: { inbox_id: 'inbox_free_support' }, query: { label: 'unread', direction: 'inbound' } },
  });
  if (messages.data) {
    const page: Schemas['MessageList'] = messages.data;
    for (const message of page.data) {
      const one: Schemas['Message'] = message;
      seen.push(typed(one.subject), typed(one.delivery.status), String(one.delivery.received_at));
    }
  }

  const experiences = await api.GET('/experiences', { params: { query: { type: 'course' } } });
  if (experiences.data) {
    const page: Schemas['ExperienceList'] = experiences.data;
    for (const experience of page.data) {
      const one: Schemas['Experience'] = experience;
      // The discriminator on type narrows details to the type's own members.
      if (one.type === 'course') seen.push(String(typed(one.details.modules_count)));
      if (one.type === 'discord_server') seen.push(typed(one.details.guild_id));
      if (one.type === 'event_type') seen.push(typed(one.details.location_type));
      if (one.type === 'digital_download') for (const file of one.details.files) seen.push(typed(file.filename));
    }
  }

  const unlinked = await api.DELETE('/price_variants/{price_variant_id}/experiences/{id}', {
    params: { path: { price_variant_id: 'pv_free_pro', id: 'creator-course' } },
  });
  if (unlinked.data) {
    const deletion: Schemas['ExperienceLinkDeletion'] = unlinked.data;
    seen.push(String(typed(deletion.deleted)));
  }

  const discount = await api.DELETE('/discounts/{id}', { params: { path: { id: 'launch20' } } });
  if (discount.data) {
    const deletion: Schemas['DiscountDeletion'] = discount.data;
    seen.push(String(typed(deletion.deleted)));
  }

  const session = await api.POST('/experiences/{experience_id}/event_sessions', {
    params: { path: { experience_id: 'exp_free_workshop' } },
    body: { title: 'Office hours', start_time: '2026-02-01T17:00:00Z', capacity: null },
  });
  if (session.data) {
    const created: Schemas['EventSession'] = session.data;
    seen.push(typed(created.start_time));
  }
  if (session.error) seen.push(typed(session.error.error.type));

  return seen;
}
`;

/** The operations the program calls, by method and path: the test checks it covers the document. */
export const CALLED_OPERATIONS = [...PROGRAM.matchAll(/api\.(GET|POST|PATCH|DELETE)\('([^']+)'/g)].map(
  ([, method, path]) => `${method} ${path}`,
);

export interface GeneratedClientCheck {
  schema: string;
  diagnostics: string[];
}

/**
 * Generates `schema.d.ts` from `document` in `dir`, writes `calls` (by default the /v1 client's
 * calls) beside it as `calls.ts` and type-checks both.
 */
export async function typeCheckGeneratedClient(document: unknown, dir: string, calls = PROGRAM): Promise<GeneratedClientCheck> {
  mkdirSync(dir, { recursive: true });
  // The program resolves `openapi-fetch` as a client project would: from its node_modules.
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // Default options, as `npx openapi-typescript` runs; `silent` keeps the test output clean.
  const schema = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0], { silent: true }));
  writeFileSync(join(dir, 'schema.d.ts'), schema);
  writeFileSync(join(dir, 'calls.ts'), calls);
  const program = ts.createProgram([join(dir, 'calls.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    // The generated declarations are checked too; only the compiler's own lib files are trusted.
    skipLibCheck: false,
    skipDefaultLibCheck: true,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `
        : '';
    return `${where}TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  return { schema, diagnostics };
}
