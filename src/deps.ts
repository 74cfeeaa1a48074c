import type { ChalkInstance } from "chalk";
import type { ApiClient } from "./api/client.js";
import type { Catalogs } from "./catalog/service.js";
import type { Paths } from "./config/paths.js";
import type { GlobalFlags, Settings } from "./config/settings.js";
import type { ConfigStore } from "./config/store.js";
import type { Target } from "./config/target.js";
import type { IO } from "./io.js";
import type { Messages } from "./output/messages.js";
import type { Output } from "./output/output.js";
import type { Prompter } from "./prompt.js";

export type { Messages, Output, Prompter, Target };

/** Everything a command may use. Built lazily: a command that needs no key never builds a client. */
export interface Deps {
  io: IO;
  env: NodeJS.ProcessEnv;
  paths: Paths;
  flags: GlobalFlags;
  /** Colour for stderr (messages, progress, prompts): on only when stderr is a terminal. */
  color: ChalkInstance;
  /** Colour for stdout (results): on only when stdout is a terminal. */
  outColor: ChalkInstance;
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
