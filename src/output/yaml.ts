/**
 * The one way rentctl writes yaml: js-yaml's dump (the one yaml library; it
 * reads them back, src/files/yaml.ts), YAML 1.2 core schema. Lines are never
 * folded, a string that would read as another type is double-quoted, an
 * object met twice is written twice (no anchors), an undefined member is
 * left out.
 */
import type * as jsYamlModule from "js-yaml";
import type { DumpOptions } from "js-yaml";

type YamlModule = typeof jsYamlModule;

let loaded: Promise<{ stringify: (value: unknown, options?: { lineWidth?: number }) => string }> | undefined;

/** The yaml writer, loaded when a command first writes yaml. `lineWidth: 0` (never fold) is the default. */
export function loadYaml(): Promise<{ stringify: (value: unknown, options?: { lineWidth?: number }) => string }> {
  loaded ??= import("js-yaml").then((m) => {
    const { CORE_SCHEMA, dump } = m as YamlModule;
    const base: DumpOptions = {
      schema: CORE_SCHEMA,
      lineWidth: -1,
      noRefs: true,
      skipInvalid: true,
      quotingType: '"',
      noCompatMode: true,
    };
    return {
      stringify: (value, options) => dump(value, options?.lineWidth ? { ...base, lineWidth: options.lineWidth } : base),
    };
  });
  return loaded;
}
