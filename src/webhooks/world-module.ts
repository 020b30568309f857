/**
 * The webhook hub's part in a world's lifecycle (src/sandbox/world-module.ts, contract §4.1): an
 * account reset drops its deliveries and watched jobs (its endpoints stay), a delete drops its
 * endpoints too, and closing the world stops the hub for good (timer, attempts in flight). Types
 * only what it calls: this layer sits below the world.
 */
import type { WebhookHub } from './hub.js';

export const webhooksModule = {
  name: 'webhooks',
  create({ webhooks }: { readonly webhooks: Pick<WebhookHub, 'resetAccount' | 'deleteAccount' | 'close'> }) {
    return {
      accountReset: (accountId: string) => webhooks.resetAccount(accountId),
      accountDeleted: (accountId: string) => webhooks.deleteAccount(accountId),
      close: () => webhooks.close(),
    };
  },
};
