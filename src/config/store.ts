import { chmodSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type Conf2 from "conf";
import { ConfigError } from "../base/errors.js";
import { lockSync } from "../base/lock.js";
import { CONFIG_SCHEMA, configProblem } from "./schema.js";
import type { Profile } from "./settings.js";

/**
 * The profile store: `config.json` in the config directory, mode 0600.
 * Reading is a plain JSON read (every API command reads it, and start-up time
 * matters); writing goes through `conf` (atomic writes, file mode), loaded
 * only by the commands that change profiles.
 */

export interface ConfigData {
  current?: string;
  profiles: Record<string, Profile>;
}

export class ConfigStore {
  readonly file: string;
  readonly dir: string;
  #data: ConfigData | undefined;

  constructor(dir: string) {
    this.dir = dir;
    this.file = join(dir, "config.json");
  }

  read(): ConfigData {
    if (this.#data) return this.#data;
    if (!existsSync(this.file)) {
      this.#data = { profiles: {} };
      return this.#data;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.file, "utf8"));
    } catch (err) {
      throw new ConfigError(`cannot read the config file ${this.file}: ${(err as Error).message}`, {
        hint: "fix or remove that file (it holds your profiles)",
      });
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new ConfigError(`cannot read the config file ${this.file}: expected a JSON object`, {
        hint: "fix or remove that file (it holds your profiles)",
      });
    }
    // Validate before anything uses (or rewrites) the file: a bad entry is reported, never written around.
    const problem = configProblem(parsed as Record<string, unknown>);
    if (problem) {
      const where =
        problem.profile !== undefined
          ? `profile ${JSON.stringify(problem.profile)}, field ${problem.field}`
          : `field ${problem.field}`;
      throw new ConfigError(`invalid config file ${this.file}: ${where} ${problem.message}`, {
        hint: "edit the file to fix or delete that entry; rentctl leaves it untouched until then",
      });
    }
    const obj = parsed as { current?: string; profiles?: Record<string, Profile> };
    this.#data = { current: obj.current, profiles: obj.profiles ?? {} };
    return this.#data;
  }

  get current(): string | undefined {
    return this.read().current;
  }

  get(name: string): Profile | undefined {
    return this.read().profiles[name];
  }

  names(): string[] {
    return Object.keys(this.read().profiles).sort();
  }

  /**
   * Read-modify-write under the config file's lock (src/base/lock.ts): the file is
   * read again inside it, so concurrent writers (two `profile set`, an
   * `auth login` beside them) each keep their change.
   */
  async write(mutate: (data: ConfigData) => void): Promise<void> {
    // a seam: conf (with ajv, ~100 ms to load) only for a write of the config
    const { default: Conf } = await import("conf");
    const release = lockSync(this.file, { what: "the config file" });
    try {
      this.#data = undefined;
      const data = structuredClone(this.read());
      mutate(data);
      this.#save(Conf, data);
    } finally {
      release();
    }
  }

  #save(Conf: typeof Conf2, data: ConfigData): void {
    try {
      // created private (0700) when it does not exist yet; an existing directory keeps its mode
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const conf = new Conf<ConfigData>({
        projectName: "rentctl",
        cwd: this.dir,
        configName: "config",
        configFileMode: 0o600,
        clearInvalidConfig: false,
        schema: CONFIG_SCHEMA as never,
        ajvOptions: { allowUnionTypes: true },
        watch: false,
      });
      conf.store = data;
    } catch (err) {
      throw new ConfigError(`cannot write the config file ${this.file}: ${(err as Error).message}`);
    }
    try {
      chmodSync(this.file, 0o600);
    } catch {
      // best effort on platforms without modes
    }
    this.#data = data;
  }
}
