import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** The README shows the library example exactly as test/library/readme-example.test.ts compiles and runs it. */
describe("README library example", () => {
  it("is the text of the tested example", () => {
    const test = readFileSync(new URL("./readme-example.test.ts", import.meta.url), "utf8");
    const start = "// README-EXAMPLE-START\n";
    const example = test.slice(test.indexOf(start) + start.length, test.indexOf("// README-EXAMPLE-END"));
    expect(example.length).toBeGreaterThan(200);
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
