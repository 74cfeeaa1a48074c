/** Why a sandbox data file cannot be opened: expected conditions, reported to the user as such. */

/** Another live process (or another sandbox in this process) serves this data file. */
export class SandboxDataInUseError extends Error {
  readonly code = "ESANDBOXBUSY";
  constructor(
    readonly dataFile: string,
    readonly pid: number,
  ) {
    super(`sandbox data file ${dataFile} is in use by process ${pid}; stop that sandbox first`);
    this.name = "SandboxDataInUseError";
  }
}

/** The data file (snapshot or journal) cannot be read back. */
export class SandboxDataCorruptError extends Error {
  readonly code = "ESANDBOXCORRUPT";
  constructor(
    readonly dataFile: string,
    detail: string,
  ) {
    super(`sandbox data file ${dataFile} is unreadable (${detail}); reset it to start over from the seed`);
    this.name = "SandboxDataCorruptError";
  }
}
