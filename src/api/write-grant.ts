/**
 * The key to the client's write operations (every contract operation that is
 * not a GET: creates, edits, removals, uploads, extras' update / switch /
 * delete). `ApiClient.call` and `ApiClient.request` refuse such a request
 * without it. Only src/gateway/ imports this module (the layering rule
 * `only-the-gateway-writes` in .dependency-cruiser.cjs), so the gateway is the
 * one place that writes: it journals for undo, checks for conflicts and
 * honours the row log of a bulk job before anything changes on the server.
 */
export const WRITE_GRANT: unique symbol = Symbol("rentctl.write-grant");
export type WriteGrant = typeof WRITE_GRANT;
