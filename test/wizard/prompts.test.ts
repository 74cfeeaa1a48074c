import { render } from "@inquirer/testing";
import { describe, expect, it } from "vitest";
import { InterruptedError } from "../../src/base/errors.js";
import { inquirerPrompts, isPromptExit, type PromptRunner, withInterrupt } from "../../src/wizard/prompts.js";

/**
 * The terminal implementation of WizardPrompts, rendered with
 * @inquirer/testing: the runner hands each inquirer prompt to `render` and
 * keeps the handle so the test can type and read the screen.
 */
function rendered() {
  type Handle = Awaited<ReturnType<typeof render>>;
  const handles: Handle[] = [];
  let notify: (() => void) | undefined;
  const runner: PromptRunner = async (prompt, config) => {
    const h = await render(prompt, config);
    handles.push(h);
    notify?.();
    return h.answer;
  };
  const current = async (): Promise<Handle> => {
    if (handles.length === 0) await new Promise<void>((r) => (notify = r));
    return handles.at(-1)!;
  };
  const io = { stdin: process.stdin, stderr: process.stderr };
  return { prompts: inquirerPrompts(io, runner), current };
}

describe("the inquirer prompt adapter", () => {
  it("input shows the validation reason and asks again", async () => {
    const r = rendered();
    const answer = r.prompts.input({
      message: "Registration number",
      validate: (s) => (s.trim() ? true : "vehicle_reg_number is required"),
    });
    const h = await r.current();
    expect(h.getScreen()).toContain("Registration number");
    h.events.keypress("enter");
    await h.nextRender();
    expect(h.getScreen()).toContain("vehicle_reg_number is required");
    h.events.type("B-XY 1");
    h.events.keypress("enter");
    await expect(answer).resolves.toBe("B-XY 1");
  });

  it("number validates the text typed and returns a number (undefined when blank)", async () => {
    const r = rendered();
    const answer = r.prompts.number({
      message: "Passengers",
      validate: (s) =>
        /^\d*$/.test(s.trim()) ? true : `vehicle_passenger_capacity must be a whole number, got "${s}"`,
    });
    const h = await r.current();
    h.events.type("4.5");
    h.events.keypress("enter");
    await h.nextRender();
    expect(h.getScreen()).toContain('must be a whole number, got "4.5"');
    for (let i = 0; i < 3; i++) h.events.keypress("backspace");
    h.events.type("5");
    h.events.keypress("enter");
    await expect(answer).resolves.toBe(5);

    const r2 = rendered();
    const blank = r2.prompts.number({ message: "Booking lead time" });
    (await r2.current()).events.keypress("enter");
    await expect(blank).resolves.toBeUndefined();
  });

  it("select starts on the default; checkbox returns the values checked", async () => {
    const r = rendered();
    const picked = r.prompts.select({
      message: "Fuel policy",
      choices: [
        { name: "Full to full", value: 1 },
        { name: "Same to same", value: 2 },
      ],
      default: 2,
    });
    const h = await r.current();
    expect(h.getScreen()).toMatch(/❯ Same to same/);
    h.events.keypress("enter");
    await expect(picked).resolves.toBe(2);

    const r2 = rendered();
    const many = r2.prompts.checkbox({
      message: "Benefits",
      choices: [
        { name: "Free cancellation", value: 1, checked: true },
        { name: "Unlimited mileage", value: 2 },
      ],
    });
    const h2 = await r2.current();
    h2.events.keypress("down");
    h2.events.keypress("space");
    h2.events.keypress("enter");
    await expect(many).resolves.toEqual([1, 2]);
  });

  it("search filters by what is typed", async () => {
    const r = rendered();
    const brands = [
      { name: "Toyota", value: 10 },
      { name: "Volkswagen", value: 11 },
    ];
    const picked = r.prompts.search({
      message: "Brand",
      source: (term) => brands.filter((b) => b.name.toLowerCase().includes((term ?? "").toLowerCase())),
    });
    const h = await r.current();
    h.events.type("volks");
    await h.nextRender();
    expect(h.getScreen()).toContain("Volkswagen");
    expect(h.getScreen()).not.toContain("Toyota");
    h.events.keypress("enter");
    await expect(picked).resolves.toBe(11);
  });

  it("Ctrl-C becomes InterruptedError (exit 130)", async () => {
    const r = rendered();
    const p = withInterrupt(r.prompts).confirm({ message: "Add a description?" });
    const h = await r.current();
    h.events.keypress({ name: "c", ctrl: true });
    const err = await p.catch((e) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(err.exitCode).toBe(130);
    expect(isPromptExit(err.cause)).toBe(true);
  });
});
