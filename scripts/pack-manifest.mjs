// `npm pack` / `npm publish` (prepack, postpack): the packed package.json carries no `prepare`.
// `prepare` builds dist/ after `npm install` in a clone; in the tarball dist/ is built already and
// scripts/build.mjs is not packed, so npm would warn about (and list for approval) a script that
// cannot run. prepack saves package.json aside and removes the script; postpack puts it back.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const file = new URL("../package.json", import.meta.url);
const saved = new URL("../package.json.prepack", import.meta.url);

if (process.argv[2] === "strip") {
  const text = readFileSync(file, "utf8");
  writeFileSync(saved, text);
  const manifest = JSON.parse(text);
  delete manifest.scripts.prepare;
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (process.argv[2] === "restore") {
  if (existsSync(saved)) renameSync(saved, file);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore");
  process.exit(2);
}
