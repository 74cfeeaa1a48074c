import { Command } from "commander";
import { type CliContext, examples, lazyAction } from "./shared.js";

export function imageCommand(ctx: CliContext): Command {
  const cmd = new Command("image").description("Upload vehicle images");
  cmd
    .command("upload")
    .argument("<files...>", "image files")
    .description("Upload images in batches of at most 10 per request; prints the new image ids")
    .option("--attach <vehicle-id>", "add the new images to this vehicle's vehicle_images (safe edit)")
    .addHelpText(
      "after",
      examples(
        "rentctl image upload front.jpg back.jpg",
        "rentctl image upload photos/*.jpg --attach 42",
        "rentctl image upload a.jpg -q",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, a: [string[]], o) => {
        const { run } = await import("../commands/image/upload.js");
        await run(deps, a[0], { attach: o.attach as string | undefined });
      }),
    );
  return cmd;
}
