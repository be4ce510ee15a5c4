// The host modules reach an extension however it imports them: named in its own file (handed to
// Bun as the file is prepared), through a file of its own, by `require`, or by a name computed at
// run time (every host module handed over and loaded first). Loaded together in one runner, in
// that order, the first extension naming only TypeBox.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/tmp.ts";
import { RunnerHarness } from "./harness.ts";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

const tool = (name: string, parameters: string) =>
  `pi.registerTool({ name: "${name}", label: "${name}", description: "${name}", parameters: ${parameters}, execute: async () => ({ content: [], details: {} }) });`;

const FILES: Record<string, string> = {
  direct: `import { Type } from "typebox";\nexport default function (pi) { ${tool("direct", "Type.Object({})")} }\n`,
  helper: `import { Type } from "@sinclair/typebox";\nimport { StringEnum } from "@earendil-works/pi-ai";\nexport const params = Type.Object({ kind: StringEnum(["a", "b"]) });\n`,
  viaHelper: `import { params } from "./helper.ts";\nexport default function (pi) { ${tool("via_helper", "params")} }\n`,
  required: `const { Type } = require("@mariozechner/pi-ai");\nexport default function (pi) { ${tool("required", "Type.Object({})")} }\n`,
  computed: `export default async function (pi) {\n  const { Type } = await import(["@earendil-works", "pi-ai"].join("/"));\n  ${tool("computed", "Type.Object({})")}\n}\n`,
};

for (const [second, toolName] of [["viaHelper", "via_helper"], ["required", "required"], ["computed", "computed"]] as const) {
  test(`after an extension naming TypeBox only, one reaching host modules ${second === "viaHelper" ? "through a file of its own" : second === "required" ? "by require" : "by a computed name"}`, async () => {
    const dir = tempDir("pig-host-module-paths-");
    // A node_modules folder, even empty, keeps Bun from installing a name it cannot resolve from
    // the registry: a host module not served must fail here, not come from npm.
    mkdirSync(join(dir, "node_modules"));
    for (const [name, source] of Object.entries(FILES)) writeFileSync(join(dir, `${name}.ts`), source);
    const load = [join(dir, "direct.ts"), join(dir, `${second}.ts`)];
    harness = new RunnerHarness({ load });
    await harness.start();
    await harness.ready();
    expect(harness.all("ready").map((r) => r.params.error ?? null)).toEqual([null, null]);
    expect(load.map((path) => (harness!.registrations(path).tools as { name: string }[]).map((t) => t.name))).toEqual([["direct"], [toolName]]);
    if (second === "viaHelper") {
      const [registered] = harness.registrations(load[1]!).tools as { parameters: { properties: { kind: { enum?: string[] } } } }[];
      expect(registered!.parameters.properties.kind.enum).toEqual(["a", "b"]);
    }
  });
}
