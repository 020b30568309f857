/**
 * The operations coverage reports on, read from the OpenAPI document the sandbox serves at
 * `/openapi.json` (contract §5.2: "the explicit status codes `/openapi.json` documents"), so coverage
 * and the document can never disagree. Only the members read here are typed: the document's own
 * types live in a higher layer.
 */
import type { CatalogOperation } from './coverage-book.js';

interface DocumentOperation {
  operationId?: string;
  responses?: Record<string, unknown>;
}

/** What is read of an OpenAPI document: its paths, their methods, each operation's responses. */
export interface OpenApiPaths {
  paths?: Record<string, Record<string, unknown>>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** An explicit status code; `2XX` ranges and `default` are left out (contract §5.2). */
const EXPLICIT_STATUS = /^[1-5]\d\d$/;

/** Every operation of the document, in its order (paths, then methods as listed). */
export function coverageCatalog(document: OpenApiPaths): CatalogOperation[] {
  const catalog: CatalogOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const operation = value as DocumentOperation;
      if (typeof operation.operationId !== 'string') continue;
      const documented = Object.keys(operation.responses ?? {})
        .filter((status) => EXPLICIT_STATUS.test(status))
        .map(Number)
        .sort((a, b) => a - b);
      catalog.push({ operation_id: operation.operationId, method: method.toUpperCase(), path, documented_statuses: documented });
    }
  }
  return catalog;
}

/** The catalog of a document, made once per document object (the publisher keeps one while nothing changes). */
const catalogs = new WeakMap<object, CatalogOperation[]>();

export function cachedCoverageCatalog(document: OpenApiPaths): CatalogOperation[] {
  let catalog = catalogs.get(document);
  if (!catalog) catalogs.set(document, (catalog = coverageCatalog(document)));
  return catalog;
}
