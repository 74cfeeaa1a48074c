import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AbortedError, InterruptedError } from "../../src/base/errors.js";
import { run } from "../../src/wizard/command.js";
import { draftFile } from "../../src/wizard/draft.js";
import type { WizardPrompts } from "../../src/wizard/prompts.js";
import { COMPLETE_RECORD, CTRL_C, DEFAULT, type Fake, fakeDeps, type Step, scripted } from "./helpers.js";

/**
 * The wizard's draft (issue 26, part 9): Ctrl-C keeps the answers so far,
 * the next run offers them back, --fresh discards them, a create deletes them,
 * and a file the wizard saves leaves account-bound ids out unless asked.
 */

let fake: Fake | undefined;
afterEach(() => {
  fake?.cleanup();
  fake = undefined;
});

function setup(): Fake {
  fake = fakeDeps();
  return fake;
}

/** The draft of the fake's target (env test, owner 1001). */
const draftOf = (f: Fake) => draftFile(f.deps.paths.dataDir, { env: "test", baseUrl: "", userId: 1001 });
const readDraft = (f: Fake) => JSON.parse(readFileSync(draftOf(f), "utf8"));

/** Segment, brand, model, configuration, year: 3 answers (brand and model are steps, not fields), then Ctrl-C. */
const THREE_ANSWERS: Step[] = [
  ["Segment", 1],
  ["Brand", "volks"],
  ["Model", /Golf/],
  ["Configuration", /TSI/],
  ["Year of issue", "2020"],
  ["Class or type", CTRL_C],
];
const ANSWERS = { vehicle_segment_id: 1, vehicle_model_id: 1100, vehicle_year_of_issue_id: 13 };

/** Records each prompt's default (select) or first offered item (search): what "prefilled" means to a person. */
function spy(p: WizardPrompts): { prompts: WizardPrompts; shown: Map<string, unknown> } {
  const shown = new Map<string, unknown>();
  return {
    shown,
    prompts: {
      ...p,
      select: (o) => {
        shown.set(o.message, o.default);
        return p.select(o);
      },
      search: async (o) => {
        shown.set(o.message, (await o.source(undefined))[0]?.name);
        return p.search(o);
      },
    },
  };
}

describe("vehicle wizard: the draft", () => {
  it("Ctrl-C after 3 answers keeps exactly those 3 in the data dir (0600), exit 130", async () => {
    const f = setup();
    const s = scripted(THREE_ANSWERS);
    const err = await run(f.deps, {}, s.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(err.exitCode).toBe(130);
    expect(s.remaining()).toEqual([]);

    const file = draftOf(f);
    expect(file.startsWith(f.deps.paths.dataDir)).toBe(true);
    const draft = readDraft(f);
    expect(draft.answers).toEqual(ANSWERS);
    expect(draft.aux).toEqual({ brand_id: 11, model_id: 110 });
    expect(draft.env).toBe("test");
    expect(draft.owner).toBe(1001);
    expect(Number.isNaN(Date.parse(draft.savedAt))).toBe(false);
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(f.stderr()).toMatch(
      /cancelled, nothing was created\n3 answers kept as a draft: `rentctl vehicle wizard` resumes/,
    );
    expect(f.stdout()).toBe("");
    expect(f.client.sent.filter((x) => !x.opId.startsWith("catalog."))).toEqual([]);
  });

  it("the next run offers the draft and every answer comes back as the prompt's default", async () => {
    const f = setup();
    await run(f.deps, {}, scripted(THREE_ANSWERS).prompts).catch(() => {});

    // Enter through the same prompts: the draft's answers, not the catalogs' first items, are chosen.
    const s = scripted([
      [/^Resume the draft from \d{4}-\d\d-\d\d \d\d:\d\d \(3 answers\)\?$/, true],
      ["Segment", DEFAULT],
      ["Brand", DEFAULT],
      ["Model", DEFAULT],
      ["Configuration", DEFAULT],
      ["Year of issue", DEFAULT],
      ["Class or type", CTRL_C],
    ]);
    const seen = spy(s.prompts);
    const err = await run(f.deps, {}, seen.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(s.remaining()).toEqual([]);
    expect(seen.shown.get("Brand (type to search)")).toBe("Volkswagen");
    expect(seen.shown.get("Year of issue")).toBe("2020");
    expect(readDraft(f).answers).toEqual(ANSWERS);
  });

  it("--fresh: no resume question, the draft is discarded", async () => {
    const f = setup();
    await run(f.deps, {}, scripted(THREE_ANSWERS).prompts).catch(() => {});
    expect(existsSync(draftOf(f))).toBe(true);

    // Strict script: a resume question would fail the run with "unexpected confirm prompt".
    const s = scripted([["Segment", CTRL_C]]);
    const err = await run(f.deps, { fresh: true }, s.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(s.log.map((c) => c.message)).toEqual(["Segment"]);
    expect(existsSync(draftOf(f))).toBe(false);
  });

  it("answering no to the resume question starts afresh and discards the draft", async () => {
    const f = setup();
    await run(f.deps, {}, scripted(THREE_ANSWERS).prompts).catch(() => {});
    const s = scripted([
      ["Resume the draft", false],
      ["Segment", CTRL_C],
    ]);
    await run(f.deps, {}, s.prompts).catch(() => {});
    expect(s.remaining()).toEqual([]);
    expect(existsSync(draftOf(f))).toBe(false);
  });

  it("a created vehicle deletes the draft; Cancel in the review discards it too", async () => {
    const f = setup();
    await run(f.deps, {}, scripted(THREE_ANSWERS).prompts).catch(() => {});
    const file = join(f.dir, "car.json");
    writeFileSync(file, JSON.stringify(COMPLETE_RECORD));
    // --from-file starts from the file: the draft is not offered (strict would fail on it), but a create ends it.
    await run(f.deps, { fromFile: file }, scripted([["What now?", "create"]]).prompts);
    expect(f.client.calls("vehicles.create")).toHaveLength(1);
    expect(existsSync(draftOf(f))).toBe(false);

    // Ctrl-C at the review keeps every answer; resuming goes straight back to the review.
    await run(f.deps, { fromFile: file }, scripted([["What now?", CTRL_C]]).prompts).catch(() => {});
    expect(readDraft(f).answers).toEqual(COMPLETE_RECORD);
    const err = await run(
      f.deps,
      {},
      scripted([
        ["Resume the draft", true],
        ["What now?", "cancel"],
      ]).prompts,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(existsSync(draftOf(f))).toBe(false);
  });

  it("the Ctrl-C message and the resume question count every answer kept, image files included", async () => {
    const f = setup();
    const file = join(f.dir, "car.json");
    writeFileSync(file, JSON.stringify(COMPLETE_RECORD));
    const image = join(f.dir, "front.png");
    writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const answers = Object.keys(COMPLETE_RECORD).length;
    // the review, then the images section: one file given, Ctrl-C at the next one
    const err = await run(
      f.deps,
      { fromFile: file },
      scripted([
        ["What now?", "edit"],
        ["Which section?", "images"],
        ["Add image files", true],
        ["Image file 1", image],
        ["Image file 2", CTRL_C],
      ]).prompts,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    const draft = readDraft(f);
    expect(draft.imageFiles).toEqual([image]);
    expect(Object.keys(draft.answers)).toHaveLength(answers);
    // the image file is an answer the draft keeps: counted, not one short
    expect(f.stderr()).toMatch(new RegExp(`\\n${answers + 1} answers kept as a draft`));
    const s = scripted([
      [new RegExp(`^Resume the draft from .* \\(${answers + 1} answers\\)\\?$`), true],
      ["What now?", CTRL_C],
    ]);
    await run(f.deps, {}, s.prompts).catch(() => {});
    expect(s.remaining()).toEqual([]);
  });

  it("one draft per environment and owner", () => {
    const dir = "/data";
    const a = draftFile(dir, { env: "sandbox", baseUrl: "", userId: 1001 });
    expect(draftFile(dir, { env: "sandbox", baseUrl: "", userId: 1002 })).not.toBe(a);
    expect(draftFile(dir, { env: "test", baseUrl: "", userId: 1001 })).not.toBe(a);
    expect(draftFile(dir, { env: "custom", baseUrl: "http://a", userId: 1001 })).not.toBe(
      draftFile(dir, { env: "custom", baseUrl: "http://b", userId: 1001 }),
    );
  });
});

describe("vehicle wizard: saved files and account-bound ids", () => {
  const withImage = (f: Fake): { file: string; image: string } => {
    const { vehicle_reg_number: _r, ...partial } = COMPLETE_RECORD;
    const file = join(f.dir, "car.json");
    writeFileSync(file, JSON.stringify(partial));
    const image = join(f.dir, "front.png");
    writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    return { file, image };
  };
  const steps = (image: string): Step[] => [
    ["Registration number", "B-SC 77"],
    ["Add image files", true],
    ["Image file 1", image],
    ["Image file 2", ""],
    ["What now?", "create"],
  ];

  it("--save leaves the uploaded image ids out of the file (they name this account's images)", async () => {
    const f = setup();
    const { file, image } = withImage(f);
    const out = join(f.dir, "answers.json");
    await run(f.deps, { fromFile: file, save: out }, scripted(steps(image), "lenient").prompts);
    expect(f.client.calls("vehicles.create")[0]!.params.vehicle_images).toEqual([900]);
    const saved = JSON.parse(readFileSync(out, "utf8"));
    expect(saved.vehicle_reg_number).toBe("B-SC 77");
    expect(saved).not.toHaveProperty("vehicle_images");
    expect(f.stderr()).toMatch(
      /vehicle_images \(900\) not in .*answers\.json: these ids belong to this account \(--with-ids keeps them\)/,
    );
  });

  it("--with-ids keeps them", async () => {
    const f = setup();
    const { file, image } = withImage(f);
    const out = join(f.dir, "answers.json");
    await run(f.deps, { fromFile: file, save: out, withIds: true }, scripted(steps(image), "lenient").prompts);
    expect(JSON.parse(readFileSync(out, "utf8")).vehicle_images).toEqual([900]);
  });
});
