/**
 * Coverage as a world module (src/sandbox/world-module.ts): one book per world, so a sandbox reset
 * (a new world) starts an empty one; fed by the two traffic hooks, cleared for an account on its
 * reset and delete (contract §5.2). This layer sits below the world: the hooks type structurally
 * only the members they read of `RequestExchange` and `EndedDelivery`.
 */
import { CoverageBook } from './coverage-book.js';

/** What coverage reads of a finished /v1 request (`RequestExchange`). */
export interface CoverageExchange {
  readonly accountId: string | null;
  /** The account was reset or deleted while the request ran: nothing of it counts (contract §4.1). */
  readonly accountForgotten: boolean;
  readonly operationId: string | null;
  readonly status: number | null;
  readonly fault: string | null;
  readonly scenarioNames: readonly string[];
}

/** What coverage reads of a delivery that will not be attempted again (`EndedDelivery`). */
export interface CoverageDelivery {
  readonly accountId: string;
  readonly eventType: string;
  readonly outcome: 'succeeded' | 'failed';
  readonly attempts: number;
}

export interface CoverageInstance {
  readonly book: CoverageBook;
  requestFinished(exchange: CoverageExchange): void;
  deliveryEnded(delivery: CoverageDelivery): void;
  accountReset(accountId: string): void;
  accountDeleted(accountId: string): void;
}

export const coverageModule = {
  name: 'coverage',
  create(): CoverageInstance {
    const book = new CoverageBook();
    const forget = (accountId: string) => book.forget(accountId);
    return {
      book,
      requestFinished(exchange) {
        // No operation answered (an unknown path or method): not counted, nothing more to read.
        const operationId = exchange.operationId;
        if (operationId === null || exchange.accountForgotten) return;
        book.count(exchange.accountId, operationId, exchange.status, exchange.fault, exchange.scenarioNames);
      },
      deliveryEnded(delivery) {
        book.deliveryEnded({
          account_id: delivery.accountId,
          event_type: delivery.eventType,
          succeeded: delivery.outcome === 'succeeded',
          // A success is the last attempt, every one before it failed; a failure failed every attempt made.
          failed_attempts: delivery.outcome === 'succeeded' ? Math.max(0, delivery.attempts - 1) : delivery.attempts,
        });
      },
      accountReset: forget,
      accountDeleted: forget,
    };
  },
};
