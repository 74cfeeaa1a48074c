// `node --import ./test/helpers/load-trace.mjs …`: appends the URL of every ES
// module the process loads (dist chunks, node: builtins, files) to the file
// named by RENTCTL_LOAD_TRACE, one per line. Used by test/e2e/startup.test.ts.
import { register } from "node:module";

if (process.env.RENTCTL_LOAD_TRACE) {
  register(
    `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from "node:fs";
const file = ${JSON.stringify(process.env.RENTCTL_LOAD_TRACE)};
export async function load(url, context, next) {
  appendFileSync(file, url + "\\n");
  return next(url, context);
}`)}`,
  );
}
