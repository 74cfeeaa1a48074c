/** The output formats every command can print (`-o`), declared once for flags, settings and writers. */
export const FORMATS = ["table", "json", "ndjson", "csv", "yaml"] as const;
export type Format = (typeof FORMATS)[number];

/**
 * `-o` values that only some commands print (a review summary): the global
 * `-o` accepts them, the commands that print them declare them
 * (VerbSpec.outputs), and every other command refuses them (settings).
 */
export const REVIEW_FORMATS = ["markdown", "sarif"] as const;
