/**
 * The rules of pinned records (src/store/pinned-records.ts) that their JSON Schema cannot say: ids
 * unique across a fixture, slugs, emails and local parts unique in an account, references only to
 * pinned records of the same account, fields that must agree. Shared by fixture files and by
 * `POST /__admin/accounts {"pinned"}`, so both refuse the same things at the same JSON pointer.
 */
import type { PinnedDiscount, PinnedEventSession, PinnedRecords } from './pinned-records.js';

export interface PinnedProblem {
  pointer: string;
  detail: string;
}

/**
 * Rules the schema cannot say: ids unique across every account of the fixture, slugs, emails and
 * local parts unique in the account, references only to pinned records of the same account, and
 * fields that must agree with each other. Returns the JSON pointer and the problem, or undefined
 * when the pinned records are consistent.
 */
export function pinnedRecordsProblem(pinned: PinnedRecords, base: string, seenIds: Set<string>): PinnedProblem | undefined {
  for (const [collection, entries] of Object.entries(pinned) as [string, { id: string; slug?: string }[]][]) {
    const slugs = new Set<string>();
    for (const [i, entry] of entries.entries()) {
      if (seenIds.has(entry.id)) return { pointer: `${base}/${collection}/${i}/id`, detail: `duplicate pinned id '${entry.id}'` };
      seenIds.add(entry.id);
      if (entry.slug !== undefined) {
        if (slugs.has(entry.slug)) return { pointer: `${base}/${collection}/${i}/slug`, detail: `duplicate slug '${entry.slug}'` };
        slugs.add(entry.slug);
      }
    }
  }
  return (
    uniqueWithin(pinned.customers, 'email', (c) => c.email?.toLowerCase(), `${base}/customers`) ??
    uniqueWithin(pinned.inboxes, 'local_part', (inbox) => inbox.local_part, `${base}/inboxes`) ??
    formsProblem(pinned, base, seenIds) ??
    linksProblem(pinned, base) ??
    discountsProblem(pinned.discounts ?? [], `${base}/discounts`) ??
    sessionsProblem(pinned.event_sessions ?? [], `${base}/event_sessions`)
  );
}

function uniqueWithin<T>(
  entries: T[] | undefined,
  field: string,
  key: (entry: T) => string | undefined,
  base: string,
): PinnedProblem | undefined {
  const seen = new Set<string>();
  for (const [i, entry] of (entries ?? []).entries()) {
    const value = key(entry);
    if (value === undefined) continue;
    if (seen.has(value)) return { pointer: `${base}/${i}/${field}`, detail: `duplicate ${field} '${value}' in this account` };
    seen.add(value);
  }
  return undefined;
}

function formsProblem(pinned: PinnedRecords, base: string, seenIds: Set<string>): PinnedProblem | undefined {
  const downloads = new Set((pinned.experiences ?? []).filter((e) => e.type === 'digital_download').map((e) => e.id));
  for (const [i, form] of (pinned.forms ?? []).entries()) {
    const at = `${base}/forms/${i}`;
    const target = form.lead_magnet_experience_id;
    if (typeof target === 'string' && !downloads.has(target)) {
      return {
        pointer: `${at}/lead_magnet_experience_id`,
        detail: `'${target}' is not a pinned digital_download experience of this account`,
      };
    }
    let emails = 0;
    const fieldIds = new Set<string>();
    for (const [j, field] of (form.fields ?? []).entries()) {
      const fieldAt = `${at}/fields/${j}`;
      // The id a field without one gets (src/resources/forms/seed.ts).
      const fieldId = field.id ?? `fld_${form.id.slice('frm_'.length)}_${j + 1}`;
      if (seenIds.has(fieldId) || fieldIds.has(fieldId)) return { pointer: `${fieldAt}/id`, detail: `duplicate field id '${fieldId}'` };
      fieldIds.add(fieldId);
      if (field.id !== undefined) seenIds.add(field.id);
      if (field.field_type === 'email' && ++emails > 1)
        return { pointer: `${fieldAt}/field_type`, detail: 'a form has at most one email field' };
      const options = field.options ?? [];
      if (field.field_type === 'select' && options.length === 0) {
        return { pointer: `${fieldAt}/options`, detail: 'a select field needs at least one option' };
      }
      if (field.field_type !== 'select' && field.field_type !== 'checkbox' && options.length > 0) {
        return { pointer: `${fieldAt}/options`, detail: `a ${field.field_type} field takes no options` };
      }
    }
  }
  return undefined;
}

function linksProblem(pinned: PinnedRecords, base: string): PinnedProblem | undefined {
  const experienceIds = new Set((pinned.experiences ?? []).map((e) => e.id));
  for (const [i, variant] of (pinned.price_variants ?? []).entries()) {
    const j = (variant.experience_ids ?? []).findIndex((experienceId) => !experienceIds.has(experienceId));
    if (j >= 0) {
      const detail = `'${variant.experience_ids![j]}' is not a pinned experience of this account`;
      return { pointer: `${base}/price_variants/${i}/experience_ids/${j}`, detail };
    }
  }
  const events = new Set((pinned.experiences ?? []).filter((e) => e.type === 'event').map((e) => e.id));
  for (const [i, session] of (pinned.event_sessions ?? []).entries()) {
    if (!events.has(session.experience_id)) {
      const detail = `'${session.experience_id}' is not a pinned event experience of this account`;
      return { pointer: `${base}/event_sessions/${i}/experience_id`, detail };
    }
  }
  return undefined;
}

function discountsProblem(discounts: PinnedDiscount[], base: string): PinnedProblem | undefined {
  for (const [i, discount] of discounts.entries()) {
    const at = `${base}/${i}`;
    const percent = discount.percent_off ?? null;
    const amount = discount.amount_off ?? null;
    if (percent !== null && amount !== null)
      return { pointer: `${at}/amount_off`, detail: 'a discount has percent_off or amount_off, not both' };
    if (discount.percent_off === null && discount.amount_off === null) {
      return { pointer: `${at}/amount_off`, detail: 'a discount needs percent_off or amount_off' };
    }
    if (discount.currency != null && amount === null) return { pointer: `${at}/currency`, detail: 'a currency goes only with amount_off' };
    const max = discount.max_redemptions;
    if (typeof max === 'number' && discount.times_redeemed !== undefined && discount.times_redeemed > max) {
      return { pointer: `${at}/times_redeemed`, detail: `must be at most max_redemptions (${max})` };
    }
  }
  return undefined;
}

function sessionsProblem(sessions: PinnedEventSession[], base: string): PinnedProblem | undefined {
  for (const [i, session] of sessions.entries()) {
    if (session.end_time === undefined) continue;
    if (session.start_time === undefined) return { pointer: `${base}/${i}/end_time`, detail: 'an end_time needs a start_time' };
    if (Date.parse(session.end_time) <= Date.parse(session.start_time)) {
      return { pointer: `${base}/${i}/end_time`, detail: 'must be after start_time' };
    }
  }
  return undefined;
}
