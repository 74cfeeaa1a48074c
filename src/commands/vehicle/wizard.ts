import { flag } from "../flags.js";
import { defineVerb } from "../verb.js";

/** `rentctl vehicle wizard`: the guided create of src/wizard (a layer above this one: run through the host). */
export const verb = defineVerb({
  name: "wizard",
  description: "Create a vehicle with a guided, interactive wizard (needs a terminal)",
  flags: {
    fromFile: flag.string("--from-file <file>", "pre-fill the answers from a JSON or YAML file"),
    save: flag.string("--save <file>", "also save the answers as a JSON file for --from-file"),
  },
  run: (deps, _args, opts, host) => host.wizard(deps, opts),
});
