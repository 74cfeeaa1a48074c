import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/base/errors.js";
import { attachImages, uploadImages } from "../../src/ops/image/upload.js";
import { type OpBench, opBench } from "./helpers.js";

/** src/ops/image/upload.ts in-process: batches of 10, progress reports, files checked first, attach by safe edit. */

let b: OpBench;
let dir: string;
beforeAll(async () => {
  b = await opBench();
  dir = await mkdtemp(join(tmpdir(), "rentctl-img-"));
});
afterAll(async () => {
  await b?.close();
  await rm(dir, { recursive: true, force: true });
});

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe("uploadImages / attachImages", () => {
  it("uploads paths and bytes in batches of 10, ids in order, progress per batch", async () => {
    const path = join(dir, "a.png");
    await writeFile(path, png);
    const files = [path, ...Array.from({ length: 11 }, (_, i) => ({ name: `b${i}.png`, data: png }))];
    const seen: string[] = [];
    b.mark();
    const r = await uploadImages(
      b.ctx,
      { files },
      { onProgress: (p) => seen.push(p.kind === "uploaded" ? `${p.done}/${p.total}` : p.kind) },
    );
    expect(r.ids).toHaveLength(12);
    expect(new Set(r.ids).size).toBe(12);
    expect(b.sent().filter((op) => op === "vehicles.upload")).toHaveLength(2);
    expect(seen).toEqual(["sending", "10/12", "12/12"]);
  });

  it("a missing or empty file is refused before anything is sent, every problem listed; a dry run sends nothing", async () => {
    const empty = join(dir, "empty.png");
    await writeFile(empty, "");
    b.mark();
    const err = await uploadImages(b.ctx, { files: [join(dir, "nope.png"), empty] }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.details).toHaveLength(2);
    const dry = await uploadImages(b.ctx, { files: [{ name: "x.png", data: png }], dryRun: true });
    expect(dry.dryRun?.requests).toHaveLength(1);
    expect(b.sent()).toEqual([]);
  });

  it("a file that is no image by its content is refused, nothing sent; anyType uploads it", async () => {
    const text = join(dir, "notes.jpg");
    await writeFile(text, "this is a text file named .jpg\n");
    const heads: Array<[string, Uint8Array]> = [
      ["a.jpg", new Uint8Array([0xff, 0xd8, 0xff, 0xdb])],
      ["a.gif", new TextEncoder().encode("GIF89a\x01\x00")],
      ["a.webp", new TextEncoder().encode("RIFF\x00\x00\x00\x00WEBPVP8 ")],
      ["a.heic", new TextEncoder().encode("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00")],
      ["a.avif", new TextEncoder().encode("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00")],
      ["a.png", png],
    ];
    b.mark();
    const err = await uploadImages(b.ctx, {
      files: [text, { name: "b.png", data: new TextEncoder().encode("<svg/>") }],
    }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.exitCode).toBe(2);
    expect(err.details.map((d: { field: string }) => d.field)).toEqual([text, "b.png"]);
    expect(err.details[0].message).toMatch(/^is no image by its content/);
    expect(err.hint).toMatch(/--any-type/);
    expect(b.sent()).toEqual([]);
    // every kind known passes; anyType lets the unknown through
    const ok = await uploadImages(b.ctx, { files: heads.map(([name, data]) => ({ name, data })) });
    expect(ok.ids).toHaveLength(heads.length);
    const any = await uploadImages(b.ctx, { files: [text], anyType: true });
    expect(any.ids).toHaveLength(1);
  });

  it("attaches the new images to a vehicle, keeping its images", async () => {
    const { ids } = await uploadImages(b.ctx, { files: [{ name: "c.png", data: png }] });
    const r = await attachImages(b.ctx, { vehicleId: 1, ids });
    expect(r.changed).toBe(true);
    const again = await attachImages(b.ctx, { vehicleId: 99_999, ids }).catch((e) => e);
    expect(again.message).toMatch(/^the images were uploaded \(ids \d+\) but attaching them to vehicle 99999 failed/);
  });
});
