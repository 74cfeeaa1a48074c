// Placeholder until the wizard lands (issue 6); replaced by the wizard implementation.
import { UsageError } from "../../api/errors.js";
import type { Deps } from "../../deps.js";

export async function run(_deps: Deps, _opts: { fromFile?: string; save?: string }): Promise<void> {
  throw new UsageError("the wizard is not built yet", { hint: "use rentctl vehicle create --from-file FILE" });
}
