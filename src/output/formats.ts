/** The output formats every command can print (`-o`), declared once for flags, settings and writers. */
export const FORMATS = ["table", "json", "ndjson", "csv", "yaml"] as const;
export type Format = (typeof FORMATS)[number];
