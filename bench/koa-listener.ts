import type { RequestListener } from 'node:http';
import type Koa from 'koa';

/**
 * A Koa app as a plain `node:http` listener. Koa's callback answers every failure itself (its promise
 * never rejects), so the listener drops the promise: `void` says so, where passing the callback
 * straight to a listener slot would hide a promise from the linter (no-misused-promises).
 */
export function listenerOf(app: Pick<Koa, 'callback'>): RequestListener {
  const handle = app.callback();
  return (req, res) => void handle(req, res);
}
