// The layering rule of rentctl (see docs/architecture.md), checked by `npm run lint`.
// Layers from the bottom; a module may import its own layer and any layer below,
// never one above, and no import cycles anywhere.
const LAYERS = [
  // the contract table: operations, fields, validation, record schemas
  ["contract", "^src/contract/"],
  // exit codes and errors, IO streams and notes, the one lock, did-you-mean and the text fold, temp files, version
  ["base", "^src/base/"],
  ["api", "^src/api/"],
  ["sandbox", "^src/sandbox/"],
  ["catalog", "^src/catalog/"],
  ["output", "^src/output/"],
  ["config", "^src/config/"],
  ["deps", "^src/(deps|prompt)\\.ts$"],
  ["resources", "^src/resources/"],
  // fleet and account files: formats, readers and writers, rows mapped to records; shell completion
  ["files", "^src/(files|completion)/"],
  // what to change: selections, relative values, calendar edits, plans of fleet and account files, saved plans
  ["plans", "^src/plans/"],
  // the only writers of vehicles and extras, and the undo history they keep
  ["gateway", "^src/gateway/"],
  // the one bulk job (row log, resume, identity check, report) and the jobs made of it (account apply)
  ["bulk", "^src/bulk/"],
  // operations: one typed function per verb (src/ops/<noun>/<verb>.ts); returns data or a plan, never prints
  ["ops", "^src/ops/"],
  ["library", "^src/library/"],
  ["commands", "^src/commands/"],
  ["wizard", "^src/wizard/"],
  // `rentctl mcp`: each tool declared once, over the ops
  ["mcp", "^src/mcp/"],
  ["cli", "^src/cli/"],
  ["main", "^src/(main|boot)\\.ts$"],
];

const above = (i) =>
  LAYERS.slice(i + 1)
    .map(([, re]) => `(${re})`)
    .join("|");

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Import cycles make the layers meaningless; move the shared piece down.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    ...LAYERS.slice(0, -1).map(([name, re], i) => ({
      name: `layer-${name}-imports-up`,
      severity: "error",
      comment: `src ${name} may import only its own layer and the layers below it (docs/architecture.md).`,
      from: { path: re },
      to: { path: above(i) },
    })),
    {
      name: "only-the-gateway-writes",
      severity: "error",
      comment:
        "The client's write operations (create, edit, remove, upload, extras' update/switch/delete) need the write grant; only src/gateway/ may hold it, so every write is journaled for undo, guarded and logged in one place.",
      from: { path: "^src/", pathNot: "^src/(gateway/|api/client\\.ts$)" },
      to: { path: "^src/api/write-grant\\.ts$" },
    },
    {
      name: "library-over-ops",
      severity: "error",
      comment:
        "The library is a front end over src/ops: it calls the operations and returns their data; it never reaches into the CLI's commands, wizard or output (issue 39).",
      from: { path: "^src/library/" },
      to: { path: "^src/(cli|commands|wizard|output)/" },
    },
    {
      name: "front-ends-apart",
      severity: "error",
      comment:
        "The MCP server is a front end over src/ops: each tool calls an operation and returns its data; it never runs a CLI command or parses what one prints (issue 39).",
      from: { path: "^src/mcp/" },
      to: { path: "^src/(cli|commands|wizard|output|library)/" },
    },
    {
      name: "no-unknown-layer",
      severity: "error",
      comment: "Every module under src/ belongs to a layer: add a new folder to LAYERS in .dependency-cruiser.cjs.",
      from: { path: "^src/", pathNot: LAYERS.map(([, re]) => `(${re})`).join("|") },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|node_modules|test|bench|scripts)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
