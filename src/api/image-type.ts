/**
 * What kind of image a file is, by its first bytes (its content, never its
 * name): the one table of signatures. A small table rather than a package:
 * `file-type` (the maintained detector) needs Node 22 in its current major
 * and brings four dependencies and some 150 formats, where an upload needs
 * these six.
 */

/** The kinds known, as a person reads them (messages, help). */
export const IMAGE_KINDS = "JPEG, PNG, GIF, WebP, HEIC or AVIF";

/** Bytes read from the start of a file to tell its kind. */
export const IMAGE_HEAD_BYTES = 16;

const ascii = (b: Uint8Array, at: number, text: string) =>
  b.length >= at + text.length && [...text].every((ch, i) => b[at + i] === ch.charCodeAt(0));

/** ISO base media (HEIF) brands of still images: HEIC and AVIF. */
const HEIF_BRANDS: Readonly<Record<string, string>> = {
  heic: "image/heic",
  heix: "image/heic",
  hevc: "image/heic",
  hevx: "image/heic",
  heim: "image/heic",
  heis: "image/heic",
  mif1: "image/heif",
  msf1: "image/heif",
  avif: "image/avif",
  avis: "image/avif",
};

/** The image type (a MIME type) of a file's first bytes, or undefined when they are no image this table knows. */
export function imageTypeOf(head: Uint8Array): string | undefined {
  const b = head;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x)) return "image/png";
  if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) return "image/gif";
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return "image/webp";
  if (ascii(b, 4, "ftyp") && b.length >= 12) return HEIF_BRANDS[String.fromCharCode(...b.subarray(8, 12))];
  return undefined;
}
