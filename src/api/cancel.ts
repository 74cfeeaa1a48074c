/**
 * What a request reads of an abort signal: `aborted`, `reason` and the
 * `abort` event. Node's AbortSignal has it, and so does Cancel below; undici
 * accepts either (it only adds and removes an `abort` listener).
 */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * A one-shot abort signal for the hot path: one per HTTP attempt and one per
 * bulk row. Node's AbortController is an EventTarget (~5 µs and a few
 * objects each, plus a weak reference per listener); a bulk run makes
 * thousands, in code that has not been optimised yet.
 */
export class Cancel implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  #listeners: Array<() => void> | undefined;

  addEventListener(_type: "abort", listener: () => void): void {
    if (this.aborted) return;
    this.#listeners ??= [];
    this.#listeners.push(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    const list = this.#listeners;
    const i = list ? list.indexOf(listener) : -1;
    if (i >= 0) list!.splice(i, 1);
  }

  /** Abort once: every listener runs once (they are dropped), later calls do nothing. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException("This operation was aborted", "AbortError");
    const list = this.#listeners;
    this.#listeners = undefined;
    if (list) for (const listener of list) listener();
  }
}
