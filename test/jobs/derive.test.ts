import { describe, expect, it } from 'vitest';
import { deriveJobState } from '../../src/jobs/derive.js';
import { decideJobOutcome, DEFAULT_FAILURE, type JobOutcomeContext, type JobOutcomeRule } from '../../src/jobs/outcome.js';
import { DEFAULT_JOB_SETTINGS } from '../../src/jobs/settings.js';
import { buildTimeline } from '../../src/jobs/timeline.js';

const T0 = Date.parse('2026-01-15T12:00:00Z');
const settings = { queued_seconds: 2, seconds_per_page: 1, credits_per_page: 1 };
const context: JobOutcomeContext = {
  jobId: 'job_x',
  type: 'crawl',
  operationId: 'crawlSite',
  accountId: 'acct_x',
  apiKeyId: 'key_x',
  input: { url: 'https://example.com/', max_pages: 10, max_depth: 2 },
  now: T0,
};

function timeline(rules: JobOutcomeRule[] = [], units = 10) {
  return buildTimeline({ now: T0, settings, units, outcome: decideJobOutcome(context, rules), provider_request_id: 'p' });
}

const at = (seconds: number) => T0 + seconds * 1000;

describe('job timeline (spec §3: queued -> processing -> completed)', () => {
  it('§3: is queued from creation until queued_seconds have passed, with progress 0 and no started_at', () => {
    const t = timeline();
    for (const s of [0, 1, 1.999])
      expect(deriveJobState(t, at(s))).toEqual({ status: 'queued', progress: 0, started_at: null, completed_at: null });
  });

  it('§3: processes from queued_seconds on, progress following the share of processing time elapsed', () => {
    const t = timeline();
    expect(deriveJobState(t, at(2))).toEqual({ status: 'processing', progress: 0, started_at: at(2), completed_at: null });
    expect(deriveJobState(t, at(4.5)).progress).toBe(25);
    expect(deriveJobState(t, at(11.99)).progress).toBe(99);
  });

  it('§3: completes after units × seconds_per_page of processing, at progress 100', () => {
    const t = timeline();
    for (const s of [12, 13, 1e6])
      expect(deriveJobState(t, at(s))).toEqual({ status: 'completed', progress: 100, started_at: at(2), completed_at: at(12) });
  });

  it('§3: progress never decreases and stays an integer from 0 to 100 as the clock moves', () => {
    const t = timeline();
    let last = 0;
    for (let ms = 0; ms <= 14_000; ms += 37) {
      const { progress } = deriveJobState(t, T0 + ms);
      expect(Number.isInteger(progress) && progress >= 0 && progress <= 100).toBe(true);
      expect(progress).toBeGreaterThanOrEqual(last);
      last = progress;
    }
    expect(last).toBe(100);
  });

  it('§3: is never queued again past its start, nor unfinished past its end, whatever the jump', () => {
    const t = timeline();
    expect(deriveJobState(t, at(3600 * 24 * 365)).status).toBe('completed');
  });
});

describe('job outcomes decided at creation', () => {
  it('completes at normal speed when no rule has an opinion', () => {
    expect(decideJobOutcome(context, [() => undefined])).toEqual({
      outcome: 'completed',
      error: null,
      error_code: null,
      at_progress: 100,
      slow_factor: 1,
    });
  });

  it('§3: a failing job goes processing -> failed at its stop progress, with error and error_code', () => {
    const t = timeline([() => ({ outcome: 'failed', error_code: 'site_unreachable', error: 'DNS lookup failed.', at_progress: 30 })]);
    expect(deriveJobState(t, at(4)).status).toBe('processing');
    expect(deriveJobState(t, at(4.99)).progress).toBe(29);
    expect(deriveJobState(t, at(5))).toEqual({ status: 'failed', progress: 30, started_at: at(2), completed_at: at(5) });
    expect(t.error_code).toBe('site_unreachable');
    expect(t.error).toBe('DNS lookup failed.');
  });

  it('fails half way with the default error and error_code when the rule gives none', () => {
    const t = timeline([() => ({ outcome: 'failed' })]);
    expect(deriveJobState(t, at(7))).toEqual({ status: 'failed', progress: 50, started_at: at(2), completed_at: at(7) });
    expect([t.error, t.error_code]).toEqual([DEFAULT_FAILURE.error, DEFAULT_FAILURE.error_code]);
  });

  it('§3: a job cancelled at progress 0 goes queued -> cancelled without ever starting', () => {
    const t = timeline([() => ({ outcome: 'cancelled', at_progress: 0 })]);
    expect(deriveJobState(t, at(1)).status).toBe('queued');
    expect(deriveJobState(t, at(2))).toEqual({ status: 'cancelled', progress: 0, started_at: null, completed_at: at(2) });
    expect([t.error, t.error_code]).toEqual([null, null]);
  });

  it('a slow factor stretches both the queued and the processing time', () => {
    const t = timeline([() => ({ slow_factor: 3 })]);
    expect(deriveJobState(t, at(5.99)).status).toBe('queued');
    expect(deriveJobState(t, at(35.99)).status).toBe('processing');
    expect(deriveJobState(t, at(36)).status).toBe('completed');
  });

  it('merges rules in order: each part of the outcome comes from the first rule that sets it', () => {
    const slow: JobOutcomeRule = () => ({ slow_factor: 2 });
    const fail: JobOutcomeRule = () => ({ outcome: 'failed', error_code: 'first' });
    const other: JobOutcomeRule = () => ({ outcome: 'cancelled', error_code: 'second', slow_factor: 5 });
    expect(decideJobOutcome(context, [slow, fail, other])).toMatchObject({ outcome: 'failed', error_code: 'first', slow_factor: 2 });
  });

  it('passes the creation context to every rule', () => {
    const seen: JobOutcomeContext[] = [];
    decideJobOutcome(context, [(c) => void seen.push(c), (c) => void seen.push(c)]);
    expect(seen).toEqual([context, context]);
  });

  it('refuses a rule decision outside its bounds (a bug in the rule, answered as 500)', () => {
    expect(() => decideJobOutcome(context, [() => ({ slow_factor: 0 })])).toThrow(RangeError);
    expect(() => decideJobOutcome(context, [() => ({ outcome: 'failed', at_progress: 100 })])).toThrow(RangeError);
  });

  it('defaults keep a crawl of a few pages within a few seconds', () => {
    const t = buildTimeline({
      now: T0,
      settings: DEFAULT_JOB_SETTINGS.crawl,
      units: 8,
      outcome: decideJobOutcome(context, []),
      provider_request_id: 'p',
    });
    expect(t.ends_at_ms - T0).toBeLessThanOrEqual(4000);
  });
});
