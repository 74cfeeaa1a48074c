import stringWidth from "string-width";

/**
 * Display widths for tables and cards: what a terminal shows, not code
 * points. A CJK glyph or an emoji takes two columns, a combining mark none
 * (string-width, which follows Unicode's East Asian Width and emoji data).
 * Loaded only by the table and card renderers, never on start-up.
 */

export function textWidth(s: string): number {
  return stringWidth(s);
}

let segmenter: Intl.Segmenter | undefined;

/** Cut a single-line text to at most `max` columns, ending in `…` when cut; never splits a grapheme. */
export function truncate(s: string, max: number): string {
  if (max <= 0) return "";
  if (textWidth(s) <= max) return s;
  if (max === 1) return "…";
  segmenter ??= new Intl.Segmenter();
  let out = "";
  let w = 0;
  for (const { segment } of segmenter.segment(s)) {
    const g = textWidth(segment);
    if (w + g > max - 1) break;
    out += segment;
    w += g;
  }
  return `${out.trimEnd()}…`;
}
