import { flag } from "../flags.js";

/** `--concurrency <n>` of the verbs that run a bulk job: 1 to 16, checked before anything is read or sent. */
export const concurrencyFlag = (description: string) => flag.int("--concurrency <n>", description, { min: 1, max: 16 });

/** Rows in flight at once when --concurrency is not given. */
export const DEFAULT_CONCURRENCY = 4;
