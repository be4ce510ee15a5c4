/**
 * `ctx.modelRegistry` in an extension run by the built binary, as Pi 1.x has it: every model pig
 * knows (built in, models.json, an extension's provider), the available ones being those whose
 * provider has credentials; the typed lists of 1.x (pig's models are all "chat"); no model
 * carries its headers, which may hold a key.
 */
import { expect, test } from "bun:test";
import { extensionWorlds, runReportingTool } from "../helpers/extension-worlds.ts";

const { world } = extensionWorlds();

const EXTENSION = `
export default function (pi) {
  pi.registerProvider("extra", {
    baseUrl: "http://127.0.0.1:9/v1",
    // Not a variable's name, so the key itself, as upstream reads it: the provider has credentials.
    apiKey: "extra-literal-key",
    api: "openai-completions",
    headers: { "x-secret": "sekrit" },
    models: [{ id: "extra-1", name: "Extra 1", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
  });
  pi.registerTool({
    name: "models_report",
    label: "Models",
    description: "Reports the model registry",
    parameters: { type: "object", properties: {} },
    async execute(_id, _params, _signal, _onUpdate, ctx) {
      const r = ctx.modelRegistry;
      const all = r.getAll();
      const available = r.getAvailable();
      const extra = r.find("extra", "extra-1");
      const report = {
        all: all.length,
        providers: [...new Set(all.map((m) => m.provider))],
        available: available.map((m) => m.provider + "/" + m.id).sort(),
        fake: r.find("fake", "fake-model")?.name,
        extra: extra && { name: extra.name, baseUrl: extra.baseUrl, headers: extra.headers ?? null },
        withHeaders: all.filter((m) => m.headers).length,
        configured: [r.hasConfiguredAuth(r.find("fake", "fake-model")), r.hasConfiguredAuth(extra), r.hasConfiguredAuth(all.find((m) => m.provider === "anthropic"))],
        ofType: [r.findOfType("chat", "fake", "fake-model")?.id, r.getModelOfType("image", "fake", "fake-model") ?? null, r.getModelsOfType("chat", "fake").length, r.getModelsOfType("classifier").length],
        availableOfType: (await r.getAvailableOfType("chat")).length,
        provider: { id: r.getProvider("extra")?.id, models: r.getProvider("extra")?.getModels().map((m) => m.id), none: r.getProvider("nobody") ?? null },
        refreshed: await r.refresh().then((x) => ({ aborted: x.aborted, errors: x.errors.size })),
        again: r.getAll().length,
        classify: (await r.classify(extra, {})).errorMessage,
        unregister: (() => { try { r.unregisterProvider("extra"); return "ran"; } catch (e) { return e.message; } })(),
      };
      return { content: [{ type: "text", text: JSON.stringify(report) }], details: {} };
    },
  });
}
`;

test("ctx.modelRegistry lists pig's models; getAvailable holds only those whose provider has credentials; 1.x's typed lists answer", async () => {
  const { run, report } = await runReportingTool(world, "models_report", { files: { "ext/models.ts": EXTENSION }, pigArgs: ["-e", "ext/models.ts"] });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  // Built-in providers pig has no key for are listed, but not available.
  expect(report.providers).toContain("fake");
  expect(report.providers).toContain("extra");
  expect(report.providers).toContain("anthropic");
  expect(report.all).toBeGreaterThan(report.available.length);
  expect(report.available.length).toBeGreaterThan(0);
  expect(report.available.filter((m: string) => !m.startsWith("fake/"))).toEqual(["extra/extra-1"]);
  expect(report.fake).toBeDefined();
  expect(report.extra).toEqual({ name: "Extra 1", baseUrl: "http://127.0.0.1:9/v1", headers: null });
  expect(report.withHeaders).toBe(0);
  expect(report.configured).toEqual([true, true, false]);
  expect(report.ofType).toEqual(["fake-model", null, report.available.length - 1, 0]);
  expect(report.availableOfType).toBe(report.available.length);
  expect(report.provider).toEqual({ id: "extra", models: ["extra-1"], none: null });
  expect(report.refreshed).toEqual({ aborted: false, errors: 0 });
  expect(report.again).toBe(report.all);
  expect(report.classify).toBe("pig has no classifier models");
  expect(report.unregister).toBe("ctx.modelRegistry.unregisterProvider is not available in pig's extension runtime (use pi.registerProvider / pi.unregisterProvider)");
});
