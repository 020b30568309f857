/**
 * `GET /openapi.json`: the document of this app instance, outside /v1 (no key, never rate-limited).
 * Building it walks every declaration, so it is built once and kept with its JSON text; it is only
 * rebuilt when the set of deprecated operations changes (a scenario or configuration can flag one
 * at run time, and the document must say so at once, spec §9.2).
 */
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { Next, SandboxContext } from '../http/context.js';
import type { OperationDef } from '../operations/types.js';
import type { DeprecationPredicate } from './deprecation.js';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';

export const OPENAPI_PATH = '/openapi.json';

export interface PublishedDocument {
  document: OpenApiDocument;
  json: string;
}

export class OpenApiPublisher {
  private cached: { key: string; published: PublishedDocument } | undefined;

  constructor(
    private readonly operations: readonly OperationDef[],
    /** Asked on every use, so run-time deprecation shows at once. */
    private readonly isDeprecated: () => DeprecationPredicate,
  ) {}

  /** The document as it stands now; the same object while nothing it depends on has changed. */
  current(): PublishedDocument {
    const isDeprecated = this.isDeprecated();
    const key = this.operations
      .filter((op) => isDeprecated(op.operationId))
      .map((op) => op.operationId)
      .join(',');
    if (this.cached?.key !== key) {
      const document = buildOpenApiDocument(this.operations, { isDeprecated });
      this.cached = { key, published: { document, json: JSON.stringify(document) } };
    }
    return this.cached.published;
  }

  document(): OpenApiDocument {
    return this.current().document;
  }
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
    ctx.body = publisher.current().json;
  };
}
