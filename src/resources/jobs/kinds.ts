/**
 * Every job type's kind, in a table keyed by `JobType`: the compiler refuses a type without one, and
 * no module has to be imported for its side effect before a job can be read.
 */
import type { JobKind } from '../../jobs/kinds.js';
import type { JobType } from '../../store/records.js';
import { crawlJobKind } from '../web/crawl.js';

const JOB_KINDS: { readonly [Type in JobType]: JobKind } = {
  crawl: crawlJobKind,
};

export function jobKind(type: JobType): JobKind {
  return JOB_KINDS[type];
}
