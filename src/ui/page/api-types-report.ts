/**
 * The page's types for the answers of contract §5.1–§5.3 (findings, coverage, the journal's
 * `finding_ids`): picks of the admin API's interface (src/admin/api-types.ts), type-only as in
 * api-types.ts, so a member renamed on the server fails the page's type check.
 */
import type { AdminRoutes, CoverageView as AdminCoverage, Finding } from '../../admin/api-types.js';
import type { JournalEntryView } from './api-types.js';

export type FindingSeverity = Finding['severity'];

/** Contract §5.1: one item of `GET /__admin/findings` (newest first), the members the page reads. */
export type FindingView = Pick<
  Finding,
  | 'id'
  | 'rule'
  | 'severity'
  | 'section'
  | 'message'
  | 'account_id'
  | 'api_key_id'
  | 'operation_id'
  | 'request_ids'
  | 'delivery_ids'
  | 'created_at'
>;

/** Contract §5.2: one /v1 operation of `GET /__admin/coverage` (the members the page reads). */
export type CoverageOperationView = Pick<
  AdminCoverage['operations'][number],
  'operation_id' | 'method' | 'path' | 'calls' | 'statuses' | 'documented_statuses' | 'untested_statuses'
>;

/** Contract §5.2: `GET /__admin/coverage?account_id=` as the page reads it. */
export type CoverageView = Pick<AdminRoutes['GET /coverage']['answer'], 'account_id' | 'summary'> & {
  operations: CoverageOperationView[];
};

/** Contract §5.1: a journal entry lists the findings its request raised. */
export type JournalEntryWithFindings = JournalEntryView;
