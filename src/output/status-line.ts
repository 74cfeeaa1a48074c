/**
 * One transient progress line on stderr ("fetched 40 of 430 vehicles…"),
 * drawn only when stderr is a terminal. Results on stdout may go to the same
 * terminal: `clear()` before writing them, `update()` after, so the two never
 * share a line.
 */
export interface StatusLine {
  update(text: string): void;
  clear(): void;
}

export function createStatusLine(stderr: NodeJS.WritableStream, enabled: boolean): StatusLine {
  let shown = false;
  return {
    update(text) {
      if (!enabled) return;
      stderr.write(`\r\x1b[K${text}`);
      shown = true;
    },
    clear() {
      if (!shown) return;
      stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}
