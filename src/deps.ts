import type { ChalkInstance } from "chalk";
import type { ApiClient } from "./api/client.js";
import type { Catalogs } from "./catalog/service.js";
import type { Paths } from "./config/paths.js";
import type { Environment, GlobalFlags, Settings } from "./config/settings.js";
import type { ConfigStore } from "./config/store.js";
import type { Json, JsonObject } from "./contract/records.js";
import type { IO } from "./io.js";
import type { Column, ListWriter } from "./output/render.js";

/** Where API commands go, once resolved (possibly by starting the sandbox). */
export interface Target {
  env: Environment | "custom";
  baseUrl: string;
  apiKey?: string;
  userId?: number;
  profileName?: string;
  /** True when the sandbox runs inside this process. */
  embeddedSandbox: boolean;
}

export interface Prompter {
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  password(message: string): Promise<string>;
}

export interface Messages {
  /** Progress and notes for humans (stderr); silent with --quiet. */
  info(text: string): void;
  warn(text: string): void;
  success(text: string): void;
  /** Say which environment and owner a mutating command acts on. */
  acting(target: Target, what: string): void;
}

export interface Output {
  list(items: JsonObject[], columns?: Column[]): Promise<void>;
  listWriter(columns?: Column[]): ListWriter;
  record(record: Json): Promise<void>;
  ids(ids: Array<number | string>): Promise<void>;
}

/** Everything a command may use. Built lazily: a command that needs no key never builds a client. */
export interface Deps {
  io: IO;
  env: NodeJS.ProcessEnv;
  paths: Paths;
  flags: GlobalFlags;
  color: ChalkInstance;
  store(): ConfigStore;
  settings(): Settings;
  target(): Promise<Target>;
  client(): Promise<ApiClient>;
  /** The locale id to send (a name given by the user is resolved through the locales catalog). */
  locale(): Promise<number>;
  /** The catalog service (fetch, cache, names <-> ids, locale), built on first use. */
  catalogs(): Catalogs;
  out: Output;
  msg: Messages;
  prompt: Prompter;
  now(): number;
  /** Run at exit (closing the client, stopping an embedded sandbox). */
  onExit(fn: () => Promise<void> | void): void;
}
