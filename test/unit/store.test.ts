import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/base/errors.js";
import { ConfigStore } from "../../src/config/store.js";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rentctl-store-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function readError(store: ConfigStore): ConfigError {
  try {
    store.read();
  } catch (e) {
    return e as ConfigError;
  }
  throw new Error("expected read() to throw");
}

describe("ConfigStore", () => {
  it("reads a missing file as no profiles, without creating it", () => {
    const store = new ConfigStore(join(dir, "nested", "rentctl"));
    expect(store.read()).toEqual({ profiles: {} });
    expect(store.current).toBeUndefined();
    expect(store.names()).toEqual([]);
    expect(store.get("work")).toBeUndefined();
    expect(existsSync(store.file)).toBe(false);
  });

  it("write creates config.json with mode 0600 (directory created as needed)", async () => {
    const store = new ConfigStore(join(dir, "nested", "rentctl"));
    await store.write((d) => {
      d.profiles.work = { env: "test", baseUrl: "https://t.example", apiKey: "secret-key-123", userId: 7 };
      d.current = "work";
    });
    expect(store.file).toBe(join(dir, "nested", "rentctl", "config.json"));
    if (process.platform !== "win32") expect(statSync(store.file).mode & 0o777).toBe(0o600);
    const onDisk = JSON.parse(readFileSync(store.file, "utf8"));
    expect(onDisk.current).toBe("work");
    expect(onDisk.profiles.work).toEqual({
      env: "test",
      baseUrl: "https://t.example",
      apiKey: "secret-key-123",
      userId: 7,
    });
  });

  it("a write is visible to this store and to a fresh one", async () => {
    const store = new ConfigStore(dir);
    await store.write((d) => {
      d.profiles.b = { userId: 2 };
      d.profiles.a = { userId: 1 };
      d.current = "a";
    });
    expect(store.names()).toEqual(["a", "b"]);
    const fresh = new ConfigStore(dir);
    expect(fresh.current).toBe("a");
    expect(fresh.get("b")).toEqual({ userId: 2 });
  });

  it("tightens the mode of an existing, too-open file on write", async () => {
    writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: { x: { userId: 1 } } }), { mode: 0o644 });
    const store = new ConfigStore(dir);
    await store.write((d) => {
      d.current = "x";
    });
    if (process.platform !== "win32") expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(new ConfigStore(dir).get("x")).toEqual({ userId: 1 });
  });

  it("the mutation works on a copy: a throwing mutation leaves the store unchanged", async () => {
    const store = new ConfigStore(dir);
    await store.write((d) => {
      d.profiles.a = { userId: 1 };
    });
    await expect(
      store.write((d) => {
        d.profiles.a!.userId = 99;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(store.get("a")).toEqual({ userId: 1 });
  });

  it("corrupt JSON → ConfigError (exit 2) naming the file", () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), "{ not json");
    const store = new ConfigStore(dir);
    const e = readError(store);
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain(store.file);
    expect(e.hint).toMatch(/fix or remove/);
  });

  it.each([["[]"], ["42"], ["null"], ['"text"']])("a JSON %s that is not an object → ConfigError", (text) => {
    writeFileSync(join(dir, "config.json"), text);
    const store = new ConfigStore(dir);
    const e = readError(store);
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toContain(store.file);
  });

  it("writing over a corrupt file refuses instead of losing it", async () => {
    writeFileSync(join(dir, "config.json"), "{ broken");
    const store = new ConfigStore(dir);
    await expect(store.write(() => {})).rejects.toBeInstanceOf(ConfigError);
    expect(readFileSync(join(dir, "config.json"), "utf8")).toBe("{ broken");
  });

  it("refuses members of the wrong type, naming the field (nothing is guessed or rewritten)", () => {
    writeFileSync(join(dir, "config.json"), JSON.stringify({ current: 5, profiles: "nope" }));
    expect(() => new ConfigStore(dir).read()).toThrow(/field current must be a string/);
    writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: { a: { timeout: -1 } } }));
    expect(() => new ConfigStore(dir).read()).toThrow(/profile "a", field timeout must be > 0/);
  });

  it("keeps members it does not know (a newer rentctl may have written them)", () => {
    writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: { a: { env: "test", future: [1] } } }));
    expect(new ConfigStore(dir).read().profiles.a).toEqual({ env: "test", future: [1] });
  });
});
