import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/base/errors.js";
import { configFrom, findConfig, loadConfig } from "../../src/ops/lint/config.js";

/** `.rentctl-lint.yaml`: found upward, rules off / re-rated / thresholds, unknown names refused with did-you-mean. */

const dir = mkdtempSync(join(tmpdir(), "lint-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lint config", () => {
  it("is found upward from the current directory", async () => {
    const deep = join(dir, "a", "b", "c");
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(dir, "a", ".rentctl-lint.yaml"), "rules:\n  no-images: off\n");
    expect(await findConfig(deep)).toBe(join(dir, "a", ".rentctl-lint.yaml"));
    const config = await loadConfig({ cwd: deep });
    expect(config.rules.get("no-images")!.enabled).toBe(false);
    expect(config.rules.get("price-rises")!.enabled).toBe(true);
  });

  it("turns rules off, re-rates them and changes thresholds", () => {
    const c = configFrom(
      {
        rules: {
          "price-rises": "error",
          "free-extra": "off",
          "short-description": { severity: "warning", min_length: 120 },
        },
      },
      "x.yaml",
    );
    expect(c.rules.get("price-rises")).toMatchObject({ enabled: true, severity: "error" });
    expect(c.rules.get("free-extra")!.enabled).toBe(false);
    expect(c.rules.get("short-description")).toMatchObject({ severity: "warning", options: { min_length: 120 } });
  });

  it("an unknown rule id is an error with did-you-mean (exit 2)", () => {
    const run = () => configFrom({ rules: { "no-image": "off" } }, ".rentctl-lint.yaml");
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/unknown rule "no-image" \(did you mean no-images\?\)/);
    try {
      run();
    } catch (e) {
      expect((e as ConfigError).exitCode).toBe(2);
    }
  });

  it("an unknown threshold, key or level is an error too", () => {
    expect(() => configFrom({ rules: { "short-description": { min_lenght: 3 } } }, "c")).toThrow(
      /unknown setting "min_lenght" \(did you mean min_length/,
    );
    expect(() => configFrom({ rule: {} }, "c")).toThrow(/unknown key "rule" \(did you mean rules\?\)/);
    expect(() => configFrom({ rules: { "price-rises": "loud" } }, "c")).toThrow(
      /expected off, on, info, warning, error/,
    );
  });

  it("--config naming a missing file is an error", async () => {
    await expect(loadConfig({ file: join(dir, "nope.yaml") })).rejects.toThrow(/no such file/);
  });
});
