/** Where requests go: a base address, and whether it is the sandbox embedded in this process. */
export interface AddressOf {
  baseUrl: string;
  embeddedSandbox?: boolean;
}

/**
 * The address a person or a script is shown for a target (dry-run requests, the
 * line naming where a command acts): the embedded sandbox listens on a new
 * port each run, so it is shown as `sandbox:` (stable: two dry runs print the
 * same request); any other target by its base address.
 */
export function shownAddress(to: AddressOf | string): string {
  if (typeof to === "string") return to;
  return to.embeddedSandbox ? "sandbox:" : to.baseUrl;
}
