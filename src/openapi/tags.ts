/**
 * The description of each tag (one per resource group) the operation declarations use. Generated
 * documentation shows it above the group's operations, and Redocly's recommended ruleset asks for
 * it (test/openapi/lint.test.ts runs it). A tag missing here is listed without a description.
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'API keys': 'Create and list the API keys of the account (spec §4.1, §4.2, §2.2).',
  Status: 'The account, its plan, credits and rate-limit standing (spec §4.13, §2.11).',
  Web: 'Start a crawl of a website; it runs as a job (spec §4.3).',
  Jobs: 'Poll a job until it completes, fails or is cancelled (spec §4.4, §2.3).',
  'Form submissions': 'Submit answers to a form on behalf of a customer (spec §4.5, §2.4).',
  Ads: 'Send server-side conversion events to an ad destination (spec §4.6, §2.10).',
  Email: 'Update inboxes and list their messages (spec §4.7, §4.8, §2.5, §2.6).',
  Experiences: 'List the experiences the account sells: courses, downloads, communities, events… (spec §4.9, §2.7).',
  'Price variants': 'Unlink an experience from a price variant, revoking the access it granted (spec §4.10, §2.9).',
  Discounts: 'Delete a discount (spec §4.11, §2.9).',
  'Event sessions': 'Schedule sessions of an event experience (spec §4.12, §2.8).',
  Webhooks:
    'Events the sandbox POSTs to your webhook endpoints, signed by the Standard Webhooks scheme (spec §6, contract §4.3). Endpoints are managed with the admin API.',
};

export function tagObject(name: string): { name: string; description?: string } {
  const description = TAG_DESCRIPTIONS[name];
  return description === undefined ? { name } : { name, description };
}
