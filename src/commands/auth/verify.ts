import { ApiClient } from "../../api/client.js";
import { DEFAULT_LOCALE } from "../../contract/operations.js";
import type { Deps } from "../../deps.js";

/**
 * The cheapest authenticated call: the first vehicle of the owner
 * (`vehicles/list` with limit 1). A 401 means the key is wrong or belongs to
 * another owner.
 */
export async function verifyKey(
  deps: Deps,
  baseUrl: string,
  apiKey: string,
  userId: number,
  timeoutMs: number,
): Promise<{ total?: number }> {
  const client = new ApiClient({
    baseUrl,
    apiKey,
    timeoutMs,
    trace: deps.flags.verbose ? (l) => deps.io.stderr.write(`${deps.color.dim(l)}\n`) : undefined,
  });
  try {
    const res = await client.call("vehicles.list", { user_id: userId, locale_id: DEFAULT_LOCALE, limit: 1 });
    return { total: res.decoded.kind === "paginated" ? res.decoded.page.total : undefined };
  } finally {
    await client.close();
  }
}
