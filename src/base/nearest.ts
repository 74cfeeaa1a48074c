/**
 * "Did you mean …?" for every name a person types (fields, keys, verbs'
 * values): the closest candidates by edit distance, a mistyped start of a
 * long name, or a part of it. One home, read by --where / --sort, --set and
 * --fields alike.
 */

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] as number;
      prev[j] = Math.min(up + 1, (prev[j - 1] as number) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] as number;
}

/** The closest candidates to a mistyped name (at most `max`), nearest first; none when nothing is close. */
export function nearest(name: string, candidates: Iterable<string>, max = 3): string[] {
  const n = name.toLowerCase().replaceAll("-", "_");
  const scored: Array<{ name: string; d: number }> = [];
  for (const c of new Set(candidates)) {
    const d = Math.min(
      editDistance(n, c),
      c.includes(n) && n.length >= 3 ? 1 : 99,
      // a mistyped start of a long name (`prise` for `price_per_day`)
      n.length >= 4 ? editDistance(n, c.slice(0, n.length)) + 1 : 99,
    );
    if (d <= Math.max(2, Math.floor(n.length / 3))) scored.push({ name: c, d });
  }
  scored.sort((a, b) => a.d - b.d || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((x) => x.name);
}

/**
 * The one text fold for matching what a person types against names (search, catalog names, model
 * names): lower case, accents and other combining marks removed, Unicode compatibility forms
 * folded (`munchen` finds `München`, `ﬁat` finds `Fiat`).
 */
export function fold(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLocaleLowerCase("en")
    .normalize("NFC");
}
