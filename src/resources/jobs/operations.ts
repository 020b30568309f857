/** Jobs: spec §4.4, §2.3, §3. A job is read as it stands at the virtual clock's now. */
import { resourceMissing } from '../../errors/api-error.js';
import { inSlices } from '../../operations/account-slices.js';
import { prefixedIdSchema } from '../../operations/schemas.js';
import { defineOperation } from '../../operations/types.js';
import { crawlJobSchema } from '../web/schemas.js';
import { jobView, jobViewInSteps } from './schemas.js';

export const getJob = defineOperation<undefined, Record<string, never>, { id: string }>({
  operationId: 'getJob',
  method: 'GET',
  path: '/jobs/{id}',
  tag: 'Jobs',
  specSection: '4.4',
  summary: 'Get job',
  description:
    'Returns the job as it stands now (used for polling a crawl). Its status, progress and timestamps follow the virtual clock; ' +
    '`result` is filled once the job is `completed`.',
  params: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: prefixedIdSchema('job', 'The job id.') } },
  query: { type: 'object', additionalProperties: false, properties: {} },
  success: { status: 200, description: 'The job.', schema: crawlJobSchema },
  errors: [400, 401, 404, 429, 500],
  // Reads the account record, its keys or its jobs: none of them seeded.
  seededRecords: false,
  handler({ params, store, sandbox }) {
    const job = store.collection('jobs').get(params.id);
    if (!job) throw resourceMissing('job', params.id, 'id');
    // Brings this job to the clock; charges its credits, exactly once, if it has just been seen completed.
    sandbox.settleJob(store, job);
    // A completed crawl's result is rendered from the seed at every read (~16 ms of CPU for 100
    // pages): a few pages per turn, in the account's lane, so a client polling it stalls no one.
    // A job that has ended stays as it is: the view made over several turns is the job as read now.
    if (job.status !== 'completed') return { body: jobView(job, sandbox.seed) };
    return inSlices(store, jobViewInSteps(job, sandbox.seed)).then((body) => ({ body }));
  },
});

export const jobOperations = [getJob];
