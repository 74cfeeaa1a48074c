import { describeRequest } from "../../api/dry-run.js";
import type { EncodableRecord } from "../../api/encode.js";
import { createdId, unwrapRecord } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import type { CreateResult } from "../vehicle/write.js";

/** Create an extra from checked input (the extra create path, shared with undo). */
export async function createExtra(deps: Deps, record: EncodableRecord): Promise<CreateResult | undefined> {
  const target = await deps.target();
  if (deps.flags.dryRun) {
    await deps.out.record(describeRequest(target.baseUrl, "extras.create", record));
    deps.msg.info(deps.color.dim("dry run: nothing was sent"));
    return undefined;
  }
  deps.msg.acting(target, "creating an extra");
  const client = await deps.client();
  const res = await client.call("extras.create", record);
  return { id: createdId(res.decoded.body, "extra"), record: unwrapRecord(res.decoded.body, "extra") };
}
