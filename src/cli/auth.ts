import type { Command } from "commander";
import { verb as login } from "../commands/auth/login.js";
import { verb as logout } from "../commands/auth/logout.js";
import { verb as migrate } from "../commands/auth/migrate.js";
import { verb as status } from "../commands/auth/status.js";
import { verb as profileList } from "../commands/profile/list.js";
import { verb as profileRemove } from "../commands/profile/remove.js";
import { verb as profileSet } from "../commands/profile/set.js";
import { verb as profileShow } from "../commands/profile/show.js";
import { verb as profileUse } from "../commands/profile/use.js";
import { nounCommand } from "./assemble.js";
import type { CliContext } from "./shared.js";

export function authCommand(ctx: CliContext): Command {
  return nounCommand(ctx, "auth", [login, status, logout, migrate]);
}

export function profileCommand(ctx: CliContext): Command {
  return nounCommand(ctx, "profile", [profileList, profileShow, profileUse, profileSet, profileRemove]);
}
