import type { ApiClient, ClientOptions } from "../api/client.js";
import { ApiClient as ApiClientFromClient } from "../api/client.js";
import { Catalogs } from "../catalog/service.js";
import type { Target } from "./target.js";

/**
 * The two services every context builds on first use, the CLI's (src/deps.ts)
 * and the library's (src/library/context.ts) alike: the API client for the
 * resolved target (closed at exit), and the catalog service over it.
 */

/** A client for the target (its address, key and sandbox failure check), closed by `onClose`'s hook. */
export async function clientFor(
  target: Target,
  opts: Omit<ClientOptions, "baseUrl" | "apiKey" | "serverFailure">,
  onClose: (fn: () => Promise<void>) => void,
): Promise<ApiClient> {
  const client = new ApiClientFromClient({
    ...opts,
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    serverFailure: target.sandboxFailure,
  });
  onClose(() => client.close());
  return client;
}

/** What a context's catalog service is built from. */
export interface CatalogSources {
  client(): Promise<ApiClient>;
  dataDir: string | undefined;
  scope(): string;
  locale(): number | string;
  now(): number;
}

/** The catalog service of a context: cache in `dataDir` (none: memory only), names in its locale. */
export function catalogsFor(ctx: CatalogSources): Catalogs {
  return new Catalogs({
    client: () => ctx.client(),
    dataDir: ctx.dataDir,
    scope: () => ctx.scope(),
    localeSetting: () => ctx.locale(),
    now: () => ctx.now(),
  });
}

/** `make`'s value, made on the first call and kept: a context builds its client and catalogs on first use. */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/** A context's `catalogs` (the catalog service over its client, built on first use) and `locale` (theirs) members. */
export function catalogMembers(
  client: () => Promise<ApiClient>,
  sources: Omit<CatalogSources, "client">,
): { catalogs: () => Catalogs; locale: () => ReturnType<Catalogs["locale"]> } {
  const catalogs = onFirstUse(() => catalogsFor({ client, ...sources }));
  return { catalogs, locale: () => catalogs().locale() };
}
