import { renameSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import type { ExtraRow, ImageRow, SandboxState, VehicleRow } from "../rows.js";
import type { Snapshot } from "../state.js";
import { SandboxDataCorruptError } from "./errors.js";
import { tempPath, writeFileDurable } from "./files.js";

/**
 * The snapshot file `<dataFile>`: one JSON document
 * `{"format":"rentctl-sandbox","version":1,"seq":N,"next":{...},"vehicles":[...],"extras":[...],"images":[...]}`,
 * one row per line, always written to a temp file, fsynced and renamed over the old one.
 */

export const SNAPSHOT_FORMAT = "rentctl-sandbox";
export const SNAPSHOT_VERSION = 1;
const CHUNK_ROWS = 500;

function snapshotHead(snap: Snapshot): string {
  return `{"format":${JSON.stringify(SNAPSHOT_FORMAT)},"version":${SNAPSHOT_VERSION},"seq":${snap.seq},"next":${JSON.stringify(snap.next)}`;
}

/** Synchronous atomic snapshot write (small states: the seed, a reset). Returns the byte size. */
export function writeSnapshotSync(dataFile: string, snap: Snapshot): number {
  const parts = [snapshotHead(snap)];
  for (const [name, rows] of [
    ["vehicles", snap.vehicles],
    ["extras", snap.extras],
    ["images", snap.images],
  ] as const) {
    parts.push(`,\n${JSON.stringify(name)}:[`, rows.map((r) => `\n${JSON.stringify(r)}`).join(","), "\n]");
  }
  parts.push("}\n");
  const text = parts.join("");
  const tmp = tempPath(dataFile);
  writeFileDurable(tmp, text);
  renameSync(tmp, dataFile);
  return Buffer.byteLength(text);
}

/**
 * Asynchronous atomic snapshot write, serialising CHUNK_ROWS rows at a time
 * so a large state never blocks requests for long. Returns the byte size.
 */
export async function writeSnapshot(dataFile: string, snap: Snapshot): Promise<number> {
  const tmp = tempPath(dataFile);
  const fh = await open(tmp, "w");
  let bytes = 0;
  const write = async (s: string): Promise<void> => {
    const buf = Buffer.from(s);
    bytes += buf.length;
    await fh.write(buf);
  };
  try {
    await write(snapshotHead(snap));
    for (const [name, rows] of [
      ["vehicles", snap.vehicles],
      ["extras", snap.extras],
      ["images", snap.images],
    ] as const) {
      await write(`,\n${JSON.stringify(name)}:[`);
      for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
        const chunk = rows.slice(i, i + CHUNK_ROWS).map((r) => `\n${JSON.stringify(r)}`);
        await write((i === 0 ? "" : ",") + chunk.join(","));
      }
      await write("\n]");
    }
    await write("}\n");
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await fh.close();
  await rename(tmp, dataFile);
  return bytes;
}

export function parseSnapshot(dataFile: string, text: string): Snapshot {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new SandboxDataCorruptError(dataFile, `not JSON: ${(err as Error).message}`);
  }
  if (doc?.format !== SNAPSHOT_FORMAT) throw new SandboxDataCorruptError(dataFile, "not a rentctl sandbox file");
  if (doc.version !== SNAPSHOT_VERSION) throw new SandboxDataCorruptError(dataFile, `unknown version ${doc.version}`);
  const next = doc.next as SandboxState["next"] | undefined;
  if (
    typeof doc.seq !== "number" ||
    !next ||
    !Array.isArray(doc.vehicles) ||
    !Array.isArray(doc.extras) ||
    !Array.isArray(doc.images)
  ) {
    throw new SandboxDataCorruptError(dataFile, "members missing");
  }
  return {
    seq: doc.seq,
    next,
    vehicles: doc.vehicles as VehicleRow[],
    extras: doc.extras as ExtraRow[],
    images: doc.images as ImageRow[],
  };
}
