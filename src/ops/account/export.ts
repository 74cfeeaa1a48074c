import { catalogPort, listExtras, listVehicles, vehicleInputMapper } from "../../files/adapters.js";
import { ACCOUNT_BOUND } from "../../files/fields.js";
import { createNameResolver, nameRow } from "../../files/resolver.js";
import { duplicatedKeys, extraExportRow, extraNamer, extraRefsOf } from "../../plans/account-export.js";
import { extraState } from "../../plans/account-extras.js";
import type { OpContext } from "../context.js";

/** A row of an account document (an extra or a vehicle), as the file holds it. */
export type AccountRow = Record<string, unknown>;

/** The account as a document: its extras (read first, by id order), then its vehicles as a stream of rows. */
export interface AccountExport {
  extras: AccountRow[];
  /** The vehicles, in the server's id order, read page by page (never held all at once). */
  vehicles: AsyncIterable<AccountRow>;
  /** Vehicles yielded so far (the whole count once `vehicles` is read). */
  vehicleCount(): number;
}

/**
 * `account export` as data: the extras (option, price, currency, period,
 * quantity, active) and the vehicles, which refer to extras by identity,
 * never by account-bound id (src/plans/account-export.ts); images and other
 * account-bound members stay out. With `names`, catalog values are names
 * where a name exists. What cannot be exported as asked is said on
 * `ctx.msg.warn` (the record is kept as ids).
 */
export async function exportAccount(ctx: OpContext, input: { names?: boolean } = {}): Promise<AccountExport> {
  const warn = (m: string) => ctx.msg.warn(m);
  const port = await catalogPort(ctx);
  const toInput = await vehicleInputMapper();
  const resolver = input.names ? createNameResolver(port) : undefined;
  const namer = extraNamer(input.names ? port : undefined);
  const states = (await listExtras(ctx, { warn }))
    .map((r) => {
      const s = extraState(r);
      if (!s) warn(`extra ${String(r.id ?? "?")}: no option or period in the server's record; not exported`);
      return s;
    })
    .filter((s) => s !== undefined)
    .sort((a, b) => a.id - b.id);
  const duplicated = duplicatedKeys(states);
  if (duplicated.size)
    warn(
      "the account has two extras of the same option and period: they are written with extra_id (account-bound; drop it before applying to another account)",
    );
  const byId = new Map(states.map((e) => [e.id, e]));
  const optionCount = new Map<number, number>();
  for (const e of states) optionCount.set(e.option_id, (optionCount.get(e.option_id) ?? 0) + 1);
  const extras: AccountRow[] = [];
  for (const e of states) extras.push(await extraExportRow(e, namer, duplicated));

  let count = 0;
  async function* vehicles(): AsyncGenerator<AccountRow> {
    for await (const page of listVehicles(ctx, { warn })) {
      for (const record of page) {
        let row: AccountRow = { ...toInput(record) };
        const ids = Array.isArray(row.vehicle_extras) ? (row.vehicle_extras as unknown[]).map(Number) : [];
        for (const k of ACCOUNT_BOUND) delete row[k];
        if (resolver) row = await nameRow(resolver, row);
        if (ids.length) {
          const r = await extraRefsOf(ids, byId, optionCount, duplicated, namer);
          // an id no reference can name (not an extra of the account, or one of two alike): all stay ids
          if (r.ids.length) {
            row.vehicle_extras = ids;
            warn(
              `vehicle ${String(record.id)}: extras ${r.ids.join(", ")} cannot be named by option and period; written as vehicle_extras ids (account-bound)`,
            );
          } else row.extras = r.refs;
        }
        count++;
        yield row;
      }
    }
  }
  return { extras, vehicles: vehicles(), vehicleCount: () => count };
}

/** The whole document in memory ({extras, vehicles}): for a tool's answer or a test, not for a large account. */
export async function accountDocument(
  ctx: OpContext,
  input: { names?: boolean } = {},
): Promise<{ extras: AccountRow[]; vehicles: AccountRow[] }> {
  const exp = await exportAccount(ctx, input);
  const vehicles: AccountRow[] = [];
  for await (const v of exp.vehicles) vehicles.push(v);
  return { extras: exp.extras, vehicles };
}
