import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Entry as EntryFromKeyring } from "@napi-rs/keyring";

/**
 * Where API keys live at rest: the system keychain (macOS Keychain, Windows
 * Credential Manager, the Linux Secret Service) through `@napi-rs/keyring`
 * (prebuilt binaries, no build step), loaded only when a key is read or
 * saved. The config file then holds only `keyStore: "keychain"`.
 *
 * No silent fallback: when no keychain is usable, `auth login` refuses unless
 * `--insecure-storage` (the 0600 config file, as before) and `auth status`
 * says where each key lives. On Linux the binding would fall back to the
 * kernel keyring, which forgets keys at logout or reboot: entries are pinned
 * to the Secret Service, so without one the keychain counts as unusable.
 *
 * `RENTCTL_KEYCHAIN`: `off` disables the keychain; `file:PATH` is a stand-in
 * kept in a JSON file (mode 0600) for tests on machines without a keychain.
 * `RENTCTL_API_KEY` never touches any store.
 */

export interface Keychain {
  /** What answers: `macOS Keychain`, `Secret Service`, `test keychain (FILE)`, … */
  readonly backend: string;
  get(account: string): string | undefined;
  set(account: string, secret: string): void;
  /** True when there was a key to remove. */
  delete(account: string): boolean;
}

export type KeychainAccess = { ok: true; keychain: Keychain } | { ok: false; reason: string };

const SERVICE = "rentctl";

/** The keychain account of a profile's key. */
export const accountOf = (profile: string) => `profile:${profile}`;

function fileKeychain(path: string): Keychain {
  const read = (): Record<string, string> => {
    try {
      return JSON.parse(readFileSync(path, "utf8")) as Record<string, string>;
    } catch {
      return {};
    }
  };
  const write = (data: Record<string, string>) => {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  };
  return {
    backend: `test keychain (${path})`,
    get: (a) => read()[a],
    set: (a, s) => write({ ...read(), [a]: s }),
    delete: (a) => {
      const d = read();
      if (!(a in d)) return false;
      delete d[a];
      write(d);
      return true;
    },
  };
}

function platformName(): string {
  return process.platform === "darwin"
    ? "macOS Keychain"
    : process.platform === "win32"
      ? "Windows Credential Manager"
      : "Secret Service";
}

/** The keychain, or why none is usable here (one line, for errors and `auth status`). */
export async function openKeychain(env: NodeJS.ProcessEnv): Promise<KeychainAccess> {
  const setting = env.RENTCTL_KEYCHAIN?.trim() ?? "";
  if (setting === "off") return { ok: false, reason: "the keychain is turned off (RENTCTL_KEYCHAIN=off)" };
  if (setting.startsWith("file:")) return { ok: true, keychain: fileKeychain(setting.slice(5)) };
  let Entry: typeof EntryFromKeyring;
  try {
    ({ Entry } = await import("@napi-rs/keyring"));
  } catch (e) {
    return { ok: false, reason: `the keychain binding cannot load on this platform (${(e as Error).message})` };
  }
  // never the kernel keyring (keyutils): it forgets the key at logout or reboot
  const entry = (a: string) => new Entry(SERVICE, a, { linux: { store: "secret-service" } });
  try {
    // a read answers "no entry" on a working keychain and fails on one that cannot be reached
    entry("probe").getPassword();
  } catch (e) {
    return { ok: false, reason: `the ${platformName()} cannot be used: ${(e as Error).message}` };
  }
  return {
    ok: true,
    keychain: {
      backend: platformName(),
      get: (a) => entry(a).getPassword() ?? undefined,
      set: (a, s) => entry(a).setPassword(s),
      delete: (a) => entry(a).deletePassword(),
    },
  };
}
