import { renameSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import type { ExtraRow, ImageRow, SandboxState, VehicleRow } from "../rows.js";
import type { Snapshot } from "../state.js";
import { type Damage, SandboxDataCorruptError } from "./errors.js";
import { fsyncDir, tempPath, writeFileDurable } from "./files.js";

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
  fsyncDir(dataFile);
  return Buffer.byteLength(text);
}

/**
 * Asynchronous atomic snapshot write, serialising CHUNK_ROWS rows at a time
 * so a large state never blocks requests for long. Returns the byte size.
 */
export async function writeSnapshot(dataFile: string, snap: Snapshot): Promise<number> {
  const tmp = tempPath(dataFile);
  const fh = await open(tmp, "w", 0o600);
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
  fsyncDir(dataFile);
  return bytes;
}

/** What a snapshot file yields: its rows up to any damage, and the damage if there is one. */
export interface ScannedSnapshot {
  snap: Snapshot;
  damage: Damage | null;
}

/** The snapshot in `text`; throws SandboxDataCorruptError naming the first damaged line. */
export function parseSnapshot(dataFile: string, text: string): Snapshot {
  const { snap, damage } = scanSnapshot(dataFile, text);
  if (damage) throw new SandboxDataCorruptError(dataFile, damage);
  return snap;
}

/**
 * Read a snapshot, keeping every row before the first damaged line. A file
 * that is whole JSON is read as such (any layout); otherwise it is read line
 * by line in the layout this module writes (one row per line), which finds
 * the line where a half-written or garbled file goes wrong.
 */
export function scanSnapshot(dataFile: string, text: string): ScannedSnapshot {
  let doc: Record<string, unknown> | undefined;
  try {
    doc = JSON.parse(text);
  } catch {
    return scanLines(dataFile, text);
  }
  const at = (detail: string): ScannedSnapshot => ({
    snap: emptySnapshot(),
    damage: { file: dataFile, line: 1, detail, dropped: countRows(text) },
  });
  if (doc?.format !== SNAPSHOT_FORMAT) return at("not a rentctl sandbox file");
  if (doc.version !== SNAPSHOT_VERSION) return at(`unknown version ${doc.version}`);
  const next = doc.next as SandboxState["next"] | undefined;
  if (
    typeof doc.seq !== "number" ||
    !next ||
    !Array.isArray(doc.vehicles) ||
    !Array.isArray(doc.extras) ||
    !Array.isArray(doc.images)
  ) {
    return at("members missing");
  }
  return {
    snap: {
      seq: doc.seq,
      next,
      vehicles: doc.vehicles as VehicleRow[],
      extras: doc.extras as ExtraRow[],
      images: doc.images as ImageRow[],
    },
    damage: null,
  };
}

function emptySnapshot(): Snapshot {
  return { seq: 0, next: { vehicle: 1, extra: 1, image: 1 }, vehicles: [], extras: [], images: [] };
}

const SECTION = /^"(vehicles|extras|images)":\[$/;
const isRowLine = (l: string): boolean => l.startsWith("{") && !l.startsWith('{"format"');
const countRows = (text: string): number => text.split("\n").filter((l) => isRowLine(l.trim())).length;

function scanLines(dataFile: string, text: string): ScannedSnapshot {
  const lines = text.split("\n");
  const snap = emptySnapshot();
  const rows: Record<"vehicles" | "extras" | "images", Array<VehicleRow | ExtraRow | ImageRow>> = {
    vehicles: [],
    extras: [],
    images: [],
  };
  let section: keyof typeof rows | null = null;
  let closed = false;
  const fail = (index: number, detail: string): ScannedSnapshot => ({
    snap: {
      ...snap,
      vehicles: rows.vehicles as VehicleRow[],
      extras: rows.extras as ExtraRow[],
      images: rows.images as ImageRow[],
    },
    damage: { file: dataFile, line: index + 1, detail, dropped: countRows(lines.slice(index).join("\n")) },
  });
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (closed) {
      if (line === "") continue;
      return fail(i, "text after the end of the snapshot");
    }
    if (i === 0) {
      let head: Record<string, unknown>;
      try {
        head = JSON.parse(`${line.replace(/,$/, "")}}`);
      } catch {
        return fail(i, "not a rentctl sandbox file (or its first line is damaged)");
      }
      if (head.format !== SNAPSHOT_FORMAT) return fail(i, "not a rentctl sandbox file");
      if (head.version !== SNAPSHOT_VERSION) return fail(i, `unknown version ${head.version}`);
      const next = head.next as SandboxState["next"] | undefined;
      if (typeof head.seq !== "number" || !next) return fail(i, "members missing");
      snap.seq = head.seq;
      snap.next = next;
      continue;
    }
    const m = SECTION.exec(line);
    if (m) {
      section = m[1] as keyof typeof rows;
      continue;
    }
    if (section && (line === "]" || line === "]," || line === "]}")) {
      if (line === "]}") closed = true;
      section = null;
      continue;
    }
    if (line === "") return fail(i, "the snapshot ends early (half written)");
    if (!section) return fail(i, "unexpected text");
    let row: { id?: unknown; owner?: unknown };
    try {
      row = JSON.parse(line.replace(/,$/, ""));
    } catch {
      return fail(i, "a row is not valid JSON (garbled or half written)");
    }
    if (typeof row?.id !== "number" || typeof row.owner !== "number") return fail(i, "a row without id or owner");
    rows[section].push(row as VehicleRow);
  }
  if (!closed) return fail(lines.length, "the snapshot ends early (half written)");
  // Every line reads but the whole is not JSON (a stray comma): keep the rows, name the file.
  return {
    ...fail(lines.length, "not valid JSON although every line reads"),
    damage: { file: dataFile, line: lines.length, detail: "not valid JSON although every line reads", dropped: 0 },
  };
}
