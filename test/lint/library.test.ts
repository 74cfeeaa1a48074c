import { writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// Through the package's own `exports` (dist/lib and its emitted types), as an integrator imports it.
import { createClient, InputError, type LintResult, type RentctlClient } from "rentctl";
import { createSandbox, type Sandbox } from "rentctl/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** client.lint: the op of `rentctl lint` behind the library (the live account, a file, a config). */

let sb: Sandbox;
let client: RentctlClient;
beforeAll(async () => {
  sb = await createSandbox();
  client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
});

describe("client.lint", () => {
  it("lints the live account: the demo owner's findings, no error", async () => {
    const r: LintResult = await client.lint();
    expect(r.source).toBe("account");
    expect(r.vehicles).toBe(3);
    expect(r.counts.error).toBe(0);
    expect(r.findings.filter((f) => f.severity === "warning").map((f) => [f.rule, f.registration])).toEqual([
      ["past-calendar-dates", "HH-SC 3003"],
    ]);
  });

  it("lints a file, with a config; an unknown rule id is a config error (exit 2) naming the nearest", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lint-lib-"));
    const file = join(dir, "fleet.json");
    writeFileSync(file, JSON.stringify([{ vehicle_reg_number: "F-1", price_per_day: 10, price_per_3days: 20 }]));
    const config = join(dir, "lint.yaml");
    writeFileSync(config, "rules:\n  required-field: off\n");
    const r = await client.lint({ file, config });
    expect(r.findings.some((f) => f.rule === "required-field")).toBe(false);
    expect(r.findings.find((f) => f.rule === "price-rises")).toMatchObject({ field: "price_per_3days", line: 1 });
    writeFileSync(config, "rules:\n  price-rise: off\n");
    await expect(client.lint({ file, config })).rejects.toMatchObject({ exitCode: 2, kind: "config" });
    await expect(client.lint({ file, config })).rejects.toThrow(/did you mean price-rises/);
  });

  it("a file that cannot be read is an InputError (exit 2) naming it, not Node's own error", async () => {
    const err = await client.lint({ file: "/nonexistent/account.yaml" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(/cannot read \/nonexistent\/account\.yaml/);
  });
});
