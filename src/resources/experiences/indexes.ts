/** The index behind `GET /v1/experiences?type=`: a page of one type walks only that type's experiences. */
import { defineIndex } from '../../store/secondary-index.js';
import type { ExperienceRecord } from '../../store/records.js';

export const EXPERIENCES_BY_TYPE = defineIndex<ExperienceRecord>('experiences by type', (experience) => [experience.type]);
