import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Tests never write outside their temp dirs: the whole run gets its own HOME,
 * XDG dirs and rentctl config / data dirs, inherited by every worker and every
 * spawned CLI (a test that forgets to pass its own still writes here, not into
 * the user's ~/.local/share/rentctl). Removed at the end of the run.
 */
export default function setup(): () => void {
  const home = mkdtempSync(join(tmpdir(), "rentctl-test-home-"));
  const vars = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    RENTCTL_CONFIG_DIR: join(home, "config"),
    RENTCTL_DATA_DIR: join(home, "data"),
    RENTCTL_KEYCHAIN: `file:${join(home, "keychain.json")}`,
  };
  Object.assign(process.env, vars);
  return () => rmSync(home, { recursive: true, force: true });
}
