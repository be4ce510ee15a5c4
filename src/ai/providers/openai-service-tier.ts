/**
 * The price of an OpenAI Responses answer by the service tier the response reports, as Pi 0.87.1
 * applies it: `flex` at half price, `priority` at twice (GPT-5.5: 2.5 times), others as listed.
 */
import type { Model, Usage } from "../types.ts";

export function serviceTierFactor(model: Model, tier: unknown): number {
  if (tier === "flex") return 0.5;
  if (tier === "priority") return model.id === "gpt-5.5" ? 2.5 : 2;
  return 1;
}

/** Scales `usage`'s cost by the tier of `response` (the final response object). */
export function priceServiceTier(model: Model): (usage: Usage, response: Record<string, unknown>) => void {
  return (usage, response) => {
    const factor = serviceTierFactor(model, response.service_tier);
    if (factor === 1) return;
    usage.cost.input *= factor;
    usage.cost.output *= factor;
    usage.cost.cacheRead *= factor;
    usage.cost.cacheWrite *= factor;
    usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
  };
}
