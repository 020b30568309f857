/**
 * The one definition of "this path is under that prefix", shared by routing, the admin guard, the
 * journal and the response observers, so they can never disagree about which requests they see.
 *
 * Exact and case-sensitive (RFC 3986 §6.2.2.1: only the scheme and host are case-insensitive), and
 * a whole segment: `/v1` and `/v1/…` are under `/v1`; `/V1/…`, `/v10` and `/__ADMIN/…` are not, and
 * so reach no handler of that prefix: they are unknown paths (404).
 */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}
