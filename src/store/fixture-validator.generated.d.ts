/** Types of the generated fixture validator (fixture-validator.generated.js, `npm run generate`). */
import type { ErrorObject } from 'ajv';

export declare function validate(data: unknown): boolean;
export declare namespace validate {
  let errors: ErrorObject[] | null | undefined;
}
export default validate;
