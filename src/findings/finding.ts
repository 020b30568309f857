/** The Finding shape and the rules that ship (contract §5.1; names fixed). */

export type Severity = 'error' | 'warning' | 'info';

export const RULES = {
  'retry-after-ignored': { severity: 'error', section: 'spec §8' },
  'retry-without-backoff': { severity: 'warning', section: 'spec §8' },
  'write-retried-without-idempotency-key': { severity: 'error', section: 'spec §7.3, §4' },
  'idempotency-key-reused': { severity: 'error', section: 'spec §7.3' },
  'non-retryable-retried': { severity: 'warning', section: 'spec §7.2' },
  'job-polled-too-often': { severity: 'warning', section: 'spec §1, §6' },
  'rate-limit-exhausted': { severity: 'warning', section: 'spec §8, §2.11' },
  'deprecated-operation-called': { severity: 'info', section: 'spec §9' },
  'webhook-signature-not-verified': { severity: 'error', section: 'spec §6, contract §4.3' },
  'webhook-delivery-failed': { severity: 'warning', section: 'contract §4.3' },
} as const satisfies Record<string, { severity: Severity; section: string }>;

export type RuleName = keyof typeof RULES;
export const RULE_NAMES = Object.keys(RULES) as RuleName[];
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

export interface Finding {
  id: string;
  object: 'finding';
  rule: RuleName;
  severity: Severity;
  section: string;
  message: string;
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
  /** The journal's request ids that show it, in order of arrival. */
  request_ids: string[];
  delivery_ids: string[];
  /** The account's clock when it was raised, ISO 8601. */
  created_at: string;
}

/** What a rule reports; the store gives it its id, severity, section and time. */
export interface RaisedFinding {
  rule: RuleName;
  message: string;
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
  request_ids: string[];
  delivery_ids: string[];
  /** The account's virtual ms. */
  at: number;
}
