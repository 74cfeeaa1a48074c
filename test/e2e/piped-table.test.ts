import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Issue 41 item 8: a table read by another program (stdout no terminal, no
 * COLUMNS) keeps every value whole, as gh and kubectl do; on a terminal (or
 * with COLUMNS) it still fits the width.
 */

const LONG = "Hamburg, Am Sandtorkai 77, Parkhaus Elbphilharmonie Ebene 3, Stellplatz 42 (Hybrid)";

let sb: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  sb = await sandboxEnv();
  const r = await runMain(["vehicle", "edit", "3", "--set", `pickup_location=${LONG}`], sb.env);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => sb?.cleanup());

const widest = (text: string) => Math.max(...text.split("\n").map((l) => l.length));

describe("tables for programs and for people", () => {
  it("piped (no terminal, no COLUMNS): every value whole, so grep finds it", async () => {
    const r = await runMain(["vehicle", "list"], sb.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(LONG);
    expect(r.stdout.split("\n").some((l) => l.includes("(Hybrid)"))).toBe(true);
    const card = await runMain(["vehicle", "get", "3"], sb.env);
    expect(card.stdout).toContain(LONG);
  });

  it("on a terminal the table fits its width (120 columns here)", async () => {
    const r = await runMain(["vehicle", "list"], sb.env, { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(LONG);
    expect(widest(r.stdout.replace(/\x1b\[[0-9;]*m/g, ""))).toBeLessThanOrEqual(120);
  });

  it("COLUMNS still sets the width of a piped table", async () => {
    const r = await runMain(["vehicle", "list"], { ...sb.env, COLUMNS: "70" });
    expect(r.stdout).not.toContain(LONG);
    expect(widest(r.stdout)).toBeLessThanOrEqual(70);
  });
});
