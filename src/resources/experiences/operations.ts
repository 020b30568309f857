/** Experiences: spec §4.9, §2.7; the filter is named `type` (contract §2). */
import { listPage, type ListQuery } from '../../operations/pagination.js';
import { listEnvelopeSchema, paginatedQuery } from '../../operations/schemas.js';
import { defineOperation } from '../../operations/types.js';
import { EXPERIENCE_TYPES, type ExperienceType } from '../../store/records.js';
import { EXPERIENCES_BY_TYPE } from './indexes.js';
import { experienceSchema, experienceView } from './schemas.js';

export const listExperiences = defineOperation<undefined, ListQuery & { type?: ExperienceType }>({
  operationId: 'listExperiences',
  method: 'GET',
  path: '/experiences',
  tag: 'Experiences',
  specSection: '4.9',
  summary: 'List experiences',
  description: 'Lists the experiences of the current account, newest first, optionally of one type.',
  query: paginatedQuery({ type: { enum: EXPERIENCE_TYPES, description: 'Only experiences of this type.' } }),
  success: { status: 200, description: 'A page of experiences.', schema: listEnvelopeSchema(experienceSchema) },
  errors: [400, 401, 403, 429, 500],
  handler({ query, store, path }) {
    const { type } = query;
    return {
      body: listPage(store.collection('experiences'), query, {
        url: path,
        ...(type === undefined ? {} : { index: { by: EXPERIENCES_BY_TYPE, key: type } }),
        view: experienceView,
      }),
    };
  },
});

export const experienceOperations = [listExperiences];
