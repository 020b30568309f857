/**
 * A webhook delivery that will not be attempted again, as the world's modules hear of it
 * (`deliveryEnded`, src/sandbox/world-module.ts). Plain data: the hub builds it only when a module
 * listens, at the moment the delivery ends.
 */
export interface EndedDelivery {
  /** The delivery's id (`whd_…`), as the admin API lists it. */
  readonly deliveryId: string;
  readonly accountId: string;
  /** The endpoint it was sent to (`we_…`). */
  readonly endpointId: string;
  /** The event's type, e.g. `job.completed`. */
  readonly eventType: string;
  /**
   * `succeeded`: a 2xx came; `failed`: the retries ran out, or its endpoint was deleted while it
   * waited. Told once per delivery: one whose endpoint is deleted during an attempt ends `failed`
   * then, whatever that attempt's answer.
   */
  readonly outcome: 'succeeded' | 'failed';
  /** It ended `failed` because its endpoint was deleted, not because its receiver kept failing. */
  readonly endpointDeleted: boolean;
  /** Attempts made (0 when its endpoint was deleted before the first). */
  readonly attempts: number;
  /** Signed with a wrong secret on purpose (scenario `webhooks-badly-signed`). */
  readonly badlySigned: boolean;
  /** The receiver's status on the last attempt; null when none came (timeout, connection error, no attempt). */
  readonly lastStatus: number | null;
}
