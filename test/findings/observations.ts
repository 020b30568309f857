/** A builder of request observations for the rules' unit tests: a well-answered GET unless told otherwise. */
import type { RequestObservation } from '../../src/findings/observation.js';

let n = 0;

export interface Sent {
  /** Real and virtual ms at arrival; the answer comes `took` ms later on both clocks. */
  real?: number;
  virtual?: number;
  took?: number;
  body?: unknown;
}

export function obs(changes: Partial<Omit<RequestObservation, 'body' | 'arrived' | 'answered'>> & Sent = {}): RequestObservation {
  n += 1;
  const { real = 0, virtual = 0, took = 5, body, ...rest } = changes;
  return {
    requestId: `req_${String(n).padStart(12, '0')}`,
    accountId: 'acct_a',
    apiKeyId: 'key_a',
    callerIp: '127.0.0.1',
    method: 'GET',
    path: '/v1/status',
    querystring: '',
    idempotencyKey: undefined,
    operationId: 'getStatus',
    status: 200,
    errorCode: undefined,
    retryAfterSeconds: undefined,
    deprecation: undefined,
    fault: null,
    closedEarly: false,
    rateLimited: undefined,
    rateLimitWindow: undefined,
    tookEffect: false,
    job: undefined,
    ...rest,
    body: () => body,
    arrived: { real, virtual },
    answered: { real: real + took, virtual: virtual + took },
  };
}
