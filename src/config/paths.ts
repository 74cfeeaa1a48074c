import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where rentctl keeps its files. `RENTCTL_CONFIG_DIR` and `RENTCTL_DATA_DIR`
 * override the platform defaults (tests use them to stay out of $HOME).
 */
export interface Paths {
  configDir: string;
  dataDir: string;
}

export function resolvePaths(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Paths {
  const home = env.HOME || env.USERPROFILE || homedir();
  let configDir: string;
  let dataDir: string;
  if (platform === "darwin") {
    configDir = join(home, "Library", "Preferences", "rentctl");
    dataDir = join(home, "Library", "Application Support", "rentctl");
  } else if (platform === "win32") {
    const appData = env.APPDATA || join(home, "AppData", "Roaming");
    const local = env.LOCALAPPDATA || join(home, "AppData", "Local");
    configDir = join(appData, "rentctl", "Config");
    dataDir = join(local, "rentctl", "Data");
  } else {
    configDir = join(env.XDG_CONFIG_HOME || join(home, ".config"), "rentctl");
    dataDir = join(env.XDG_DATA_HOME || join(home, ".local", "share"), "rentctl");
  }
  return {
    configDir: env.RENTCTL_CONFIG_DIR || configDir,
    dataDir: env.RENTCTL_DATA_DIR || dataDir,
  };
}

/** The sandbox's default data file. */
export function sandboxDataFile(paths: Paths): string {
  return join(paths.dataDir, "sandbox.json");
}
