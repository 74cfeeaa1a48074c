import { Command } from "commander";
import { activateVerb, deactivateVerb } from "../commands/vehicle/activate.js";
import { verb as apply } from "../commands/vehicle/apply.js";
import { verb as calendar } from "../commands/vehicle/calendar.js";
import { verb as create } from "../commands/vehicle/create.js";
import { verb as diff } from "../commands/vehicle/diff.js";
import { verb as edit } from "../commands/vehicle/edit.js";
import { verb as exportVerb } from "../commands/vehicle/export.js";
import { verb as get } from "../commands/vehicle/get.js";
import { verb as importVerb } from "../commands/vehicle/import.js";
import { verb as list } from "../commands/vehicle/list.js";
import { verb as remove } from "../commands/vehicle/remove.js";
import { verb as schema } from "../commands/vehicle/schema.js";
import { verb as wizard } from "../commands/vehicle/wizard.js";
import { addVerbs } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl vehicle`: its verbs, in help order (each declared in src/commands/vehicle/<verb>.ts). */
export function vehicleCommand(ctx: CliContext): Command {
  const cmd = new Command("vehicle").description("List, show, create, edit, remove and (de)activate vehicles");
  addVerbs(ctx, cmd, [
    list,
    get,
    create,
    wizard,
    edit,
    remove,
    activateVerb,
    deactivateVerb,
    calendar,
    exportVerb,
    importVerb,
    diff,
    apply,
    schema,
  ]);
  return cmd;
}
