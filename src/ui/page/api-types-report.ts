/**
 * The page's types for the answers of contract §5.1–§5.3 (findings, coverage, the journal's
 * `finding_ids`), written by hand from the contract for now: those routes are not yet in the admin
 * API's interface (src/admin/api-types.ts). Once they are, this file becomes type-only picks from it,
 * as api-types.ts does, so a renamed member fails the page's type check. Keep it small until then.
 */
import type { JournalEntryView } from './api-types.js';

export type FindingSeverity = 'error' | 'warning' | 'info';

/** Contract §5.1: one item of `GET /__admin/findings` (newest first). */
export interface FindingView {
  id: string;
  rule: string;
  severity: FindingSeverity;
  section: string;
  message: string;
  account_id: string | null;
  api_key_id: string | null;
  operation_id: string | null;
  /** The journal's request ids that show it, in order of arrival. */
  request_ids: string[];
  delivery_ids: string[];
  created_at: string;
}

/** Contract §5.2: one /v1 operation of `GET /__admin/coverage` (the members the page reads). */
export interface CoverageOperationView {
  operation_id: string;
  method: string;
  path: string;
  calls: number;
  statuses: Record<string, number>;
  documented_statuses: number[];
  untested_statuses: number[];
}

export interface CoverageView {
  account_id: string | null;
  operations: CoverageOperationView[];
  summary: { operations_called: number; operations_total: number; statuses_seen: number; statuses_documented: number };
}

/** Contract §5.1: a journal entry lists the findings its request raised (absent from a sandbox without findings). */
export type JournalEntryWithFindings = JournalEntryView & { finding_ids?: string[] };
