/**
 * `GET /openapi.json`: the document of this app instance, outside /v1 (no key, never rate-limited).
 * Building it walks every declaration, so it is built once and kept with its JSON text; it is only
 * rebuilt when the set of deprecated operations changes (a scenario or configuration can flag one
 * at run time, and the document must say so at once, spec §9.2). With an API key it is the
 * document as that key's account sees it (contract §5.4).
 */
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { Next, SandboxContext } from '../http/context.js';
import type { OperationDef } from '../operations/types.js';
import { isKeyExpired } from '../http/authenticate.js';
import { identifyCaller } from '../http/identify-caller.js';
import { callerDeprecationPredicate, type DeprecationPredicate } from './deprecation.js';
import { buildOpenApiDocument, type DocumentOptions, type OpenApiDocument } from './document.js';

export const OPENAPI_PATH = '/openapi.json';

export interface PublishedDocument {
  document: OpenApiDocument;
  json: string;
}

/** Documents kept per deprecated set: a handful of sets at most live at once (sandbox-wide, and per account scenarios). */
const KEPT_DOCUMENTS = 8;

export class OpenApiPublisher {
  /** By deprecated set (operation ids, comma-joined), least recently used first. */
  private readonly cached = new Map<string, PublishedDocument>();

  constructor(
    private readonly operations: readonly OperationDef[],
    /** Asked on every use, so run-time deprecation shows at once. */
    private readonly isDeprecated: () => DeprecationPredicate,
    /** What the document says that does not change while the app lives (the webhook attempt deadline). */
    private readonly fixed: Pick<DocumentOptions, 'webhookTimeoutMs'> = {},
  ) {}

  /** The sandbox-wide document as it stands now; the same object while nothing it depends on has changed. */
  current(): PublishedDocument {
    return this.withDeprecated(this.isDeprecated());
  }

  /**
   * The document with the operations `isDeprecated` names flagged (an account's view, contract §5.4).
   * Documents are kept by the set they flag, so every caller seeing the same set shares one.
   */
  withDeprecated(isDeprecated: DeprecationPredicate): PublishedDocument {
    const key = this.operations
      .filter((op) => isDeprecated(op.operationId))
      .map((op) => op.operationId)
      .join(',');
    let published = this.cached.get(key);
    if (published) {
      this.cached.delete(key);
    } else {
      const document = buildOpenApiDocument(this.operations, { ...this.fixed, isDeprecated });
      published = { document, json: JSON.stringify(document) };
      if (this.cached.size >= KEPT_DOCUMENTS) this.cached.delete(this.cached.keys().next().value!);
    }
    this.cached.set(key, published);
    return published;
  }

  document(): OpenApiDocument {
    return this.current().document;
  }
}

/**
 * The document a request asks for: with `Authorization: Bearer <key>` of a key that authenticates
 * now, as that key's account sees it (contract §5.4: the sandbox-wide deprecations and the scenarios
 * a request with that key would meet); otherwise (no header, a malformed, unknown, revoked or
 * expired key) the sandbox-wide document, never a 401: tools fetch the document without a key, and
 * a stale key in a generator's settings must not break a build (docs/api.md).
 */
function publishedFor(publisher: OpenApiPublisher, ctx: SandboxContext): PublishedDocument {
  const caller = identifyCaller(ctx);
  if (caller.kind !== 'api_key') return publisher.current();
  const { world } = ctx.state;
  const { key, account } = caller;
  if (key.revoked_at !== null || isKeyExpired(key, world.timeOf(account.id).clock.now())) return publisher.current();
  return publisher.withDeprecated(callerDeprecationPredicate(world, { accountId: account.id, apiKeyId: key.id }));
}

export function openApiRoute(publisher: OpenApiPublisher, path = OPENAPI_PATH) {
  return async function openApiRouteMiddleware(ctx: SandboxContext, next: Next): Promise<void> {
    if (ctx.path !== path) return void (await next());
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new ApiError('method_not_allowed', {
        message: MESSAGES.methodNotAllowed(ctx.method, ctx.path, 'GET, HEAD'),
        headers: { Allow: 'GET, HEAD' },
      });
    }
    ctx.type = 'application/json';
    // The answer depends on the key sent: caches must not hand one account's document to another.
    ctx.vary('Authorization');
    ctx.body = publishedFor(publisher, ctx).json;
  };
}
