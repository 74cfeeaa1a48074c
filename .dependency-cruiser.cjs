// The layering rule of rentctl (see docs/architecture.md), checked by `npm run lint`.
// Layers from the bottom; a module may import its own layer and any layer below,
// never one above, and no import cycles anywhere.
const LAYERS = [
  ["contract", "^src/contract/"],
  ["base", "^src/(concurrency|errors|io|memory|nearest|temp-files|version)\\.ts$"],
  ["locks", "^src/locks/"],
  ["api", "^src/api/"],
  ["sandbox", "^src/sandbox/"],
  ["catalog", "^src/catalog/"],
  ["output", "^src/output/"],
  ["config", "^src/(config|history)/"],
  ["deps", "^src/(deps|prompt)\\.ts$"],
  ["resources", "^src/resources/"],
  ["fleet", "^src/(fleet|completion)/"],
  // account files (extras + vehicles): plans over fleet/, read-only like it; writes go through gateway/
  ["account", "^src/account/"],
  ["gateway", "^src/gateway/"],
  ["bulk", "^src/bulk/"],
  // jobs made of the bulk shell and the gateway, shared by the CLI and the library (account apply)
  ["jobs", "^src/jobs/"],
  // operations: one typed function per verb (src/ops/<noun>/<verb>.ts); returns data or a plan, never prints
  ["ops", "^src/ops/"],
  ["library", "^src/library/"],
  ["commands", "^src/commands/"],
  ["wizard", "^src/wizard/"],
  // `rentctl mcp`: tools over the commands' own code (selection, plans, apply, undo)
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
