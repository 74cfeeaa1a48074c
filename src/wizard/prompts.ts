import { InterruptedError } from "../base/errors.js";
import type { IO } from "../base/io.js";
import type { Deps } from "../deps.js";

/**
 * The prompt layer of the wizard, as an interface: the flow only ever talks
 * to `WizardPrompts`, so tests drive it with scripted answers and the real
 * terminal implementation (on @inquirer/prompts, loaded on first use) stays
 * out of every other command's start-up.
 *
 * A `validate` returns `true` or the reason shown under the prompt; the
 * prompt is asked again until it passes.
 */

export type Validate<V> = (value: V) => true | string | Promise<true | string>;

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
  disabled?: boolean | string;
}

export interface CheckChoice<T> extends Choice<T> {
  checked?: boolean;
}

export interface SelectOptions<T> {
  message: string;
  choices: Choice<T>[];
  default?: T;
  pageSize?: number;
}

export interface SearchOptions<T> {
  message: string;
  /** Choices for what was typed so far (`undefined` before anything is typed). */
  source: (term: string | undefined) => Choice<T>[] | Promise<Choice<T>[]>;
  validate?: Validate<T>;
  pageSize?: number;
}

export interface InputOptions {
  message: string;
  default?: string;
  validate?: Validate<string>;
}

export interface NumberOptions {
  message: string;
  default?: number;
  /** Called with the text typed (so the contract's own messages can be shown). */
  validate?: Validate<string>;
}

export interface ConfirmOptions {
  message: string;
  default?: boolean;
}

export interface CheckboxOptions<T> {
  message: string;
  choices: CheckChoice<T>[];
  validate?: Validate<T[]>;
  pageSize?: number;
}

export interface WizardPrompts {
  select<T>(o: SelectOptions<T>): Promise<T>;
  search<T>(o: SearchOptions<T>): Promise<T>;
  input(o: InputOptions): Promise<string>;
  /** A whole number, or `undefined` when left blank (or answered with text that is not a number, if `validate` let it pass). */
  number(o: NumberOptions): Promise<number | undefined>;
  confirm(o: ConfirmOptions): Promise<boolean>;
  checkbox<T>(o: CheckboxOptions<T>): Promise<T[]>;
}

// biome-ignore lint/suspicious/noExplicitAny: the inquirer prompt functions are generic in ways a runner cannot name
export type PromptFn = (config: any, context?: any) => Promise<any>;

/**
 * How one inquirer prompt is run. The default calls it with the terminal
 * context; tests may pass one that renders it with `@inquirer/testing`.
 */
export type PromptRunner = (prompt: PromptFn, config: Record<string, unknown>) => Promise<unknown>;

const WHOLE = /^[+-]?\d+$/;

/** The terminal implementation: prompts render on stderr, read stdin; stdout stays for the result. */
export function inquirerPrompts(io: Pick<IO, "stdin" | "stderr">, runner?: PromptRunner): WizardPrompts {
  const context = { input: io.stdin, output: io.stderr };
  const run: PromptRunner = runner ?? ((prompt, config) => prompt(config, context));
  // a seam: @inquirer/prompts loads with the first question
  const lib = () => import("@inquirer/prompts");
  const check =
    <V>(validate: Validate<V> | undefined) =>
    async (v: V): Promise<true | string> =>
      validate ? validate(v) : true;
  return {
    async select<T>(o: SelectOptions<T>): Promise<T> {
      const { select } = await lib();
      return (await run(select, {
        message: o.message,
        choices: o.choices,
        default: o.default,
        pageSize: o.pageSize ?? 12,
        loop: false,
      })) as T;
    },
    async search<T>(o: SearchOptions<T>): Promise<T> {
      const { search } = await lib();
      return (await run(search, {
        message: o.message,
        source: async (term: string | undefined) => o.source(term),
        validate: check(o.validate),
        pageSize: o.pageSize ?? 12,
      })) as T;
    },
    async input(o: InputOptions): Promise<string> {
      const { input } = await lib();
      return (await run(input, {
        message: o.message,
        default: o.default,
        validate: check(o.validate),
      })) as string;
    },
    async number(o: NumberOptions): Promise<number | undefined> {
      const { input } = await lib();
      const text = (await run(input, {
        message: o.message,
        default: o.default === undefined ? undefined : String(o.default),
        validate: async (s: string) => {
          if (o.validate) return o.validate(s);
          return s.trim() === "" || WHOLE.test(s.trim()) ? true : "must be a whole number";
        },
      })) as string;
      const n = Number(text.trim());
      return text.trim() === "" || Number.isNaN(n) ? undefined : n;
    },
    async confirm(o: ConfirmOptions): Promise<boolean> {
      const { confirm } = await lib();
      return (await run(confirm, { message: o.message, default: o.default })) as boolean;
    },
    async checkbox<T>(o: CheckboxOptions<T>): Promise<T[]> {
      const { checkbox } = await lib();
      return (await run(checkbox, {
        message: o.message,
        choices: o.choices,
        pageSize: o.pageSize ?? 12,
        loop: false,
        validate: async (chosen: ReadonlyArray<{ value: T }>) => check(o.validate)(chosen.map((c) => c.value)),
      })) as T[];
    },
  };
}

/** Inquirer's "the user left the prompt" errors (Ctrl-C, a closed input, a cancelled prompt). */
export function isPromptExit(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === "ExitPromptError" || err.name === "AbortPromptError" || err.name === "CancelPromptError")
  );
}

/** Every prompt, with Ctrl-C turned into `InterruptedError` (exit 130). */
export function withInterrupt(p: WizardPrompts): WizardPrompts {
  const guard = async <V>(f: () => Promise<V>): Promise<V> => {
    try {
      return await f();
    } catch (e) {
      if (isPromptExit(e)) throw new InterruptedError("wizard interrupted: nothing was created", { cause: e });
      throw e;
    }
  };
  return {
    select: (o) => guard(() => p.select(o)),
    search: (o) => guard(() => p.search(o)),
    input: (o) => guard(() => p.input(o)),
    number: (o) => guard(() => p.number(o)),
    confirm: (o) => guard(() => p.confirm(o)),
    checkbox: (o) => guard(() => p.checkbox(o)),
  };
}

export type WizardPromptsFactory = (deps: Deps) => WizardPrompts;

const defaultFactory: WizardPromptsFactory = (deps) => inquirerPrompts(deps.io);
let factory: WizardPromptsFactory = defaultFactory;

/** The prompts the wizard uses when none are passed to `run` explicitly. */
export function wizardPrompts(deps: Deps): WizardPrompts {
  return factory(deps);
}

/** Replace the prompt factory (tests); `undefined` restores the terminal one. Returns the previous factory. */
export function setWizardPromptsFactory(f: WizardPromptsFactory | undefined): WizardPromptsFactory {
  const prev = factory;
  factory = f ?? defaultFactory;
  return prev;
}
