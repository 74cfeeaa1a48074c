// Loaded with `node --import` by the module-load guard test: records the URL of
// every module the process loads into the file named by RENTCTL_TRACE_LOADS.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from "node:fs";
const file = ${JSON.stringify(process.env.RENTCTL_TRACE_LOADS)};
export async function load(url, context, next) {
  appendFileSync(file, url + "\\n");
  return next(url, context);
}`)}`,
);
