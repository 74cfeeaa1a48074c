// The library's types, one bundled .d.ts per package entry (dts-bundle-generator), built by scripts/build.mjs.
module.exports = {
  compilationOptions: { preferredConfigPath: "../tsconfig.lib.json" },
  entries: [
    {
      filePath: "../src/library/index.ts",
      outFile: "../dist/lib/index.d.ts",
      noCheck: true,
      output: { exportReferencedTypes: false, noBanner: true },
    },
    {
      filePath: "../src/library/sandbox.ts",
      outFile: "../dist/lib/sandbox.d.ts",
      noCheck: true,
      output: { exportReferencedTypes: false, noBanner: true },
    },
  ],
};
