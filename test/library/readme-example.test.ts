// The README's example of the library (section "rentctl as a library"), compiled by tsc and run
// by vitest as it stands; test/library/readme-sync.test.ts checks that the README shows this text.
// README-EXAMPLE-START
import { createClient, type RentctlClient } from "rentctl";
import { createSandbox, sampleVehicle } from "rentctl/sandbox";
import { expect, test } from "vitest";

// Your code: list a car for rent, at a price, and return its id.
async function listCar(client: RentctlClient, reg: string, pricePerDay: number): Promise<number> {
  const { id } = await client.vehicles.create({
    ...sampleVehicle(1003),
    vehicle_reg_number: reg,
    price_per_day: pricePerDay,
  });
  return id;
}

test("listCar creates the vehicle with its price", async () => {
  const sb = await createSandbox({ seed: "empty" });
  const owner = sb.owners.find((o) => o.userId === 1003)!;
  const client = createClient({ baseUrl: sb.url, apiKey: owner.apiKey, userId: owner.userId });
  try {
    const id = await listCar(client, "B-RC 42", 55);
    expect((await client.vehicles.get(id)).price_per_day).toBe(55);
    expect(sb.requests().filter((r) => r.operation === "vehicles.create")).toHaveLength(1);
  } finally {
    await client.close();
    await sb.close();
  }
});
// README-EXAMPLE-END

// Every TypeScript example of the README's library section ("For integrators"), compiled as printed
// (strict, module nodenext, against the package's own `exports` and types), each as an ES module.
test("the README's library examples compile as printed", async () => {
  const { mkdirSync, readFileSync, rmSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const ts = (await import("typescript")).default;
  const root = new URL("../../", import.meta.url).pathname;
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### For integrators"), readme.indexOf("### Use with an AI assistant"));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  const dir = join(root, `.rentctl-test-readme-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const files = blocks.map((text, i) => {
      const file = join(dir, `example-${i + 1}.mts`);
      writeFileSync(file, text.includes("import ") ? text : `${text}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: ["node"],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
