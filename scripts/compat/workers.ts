// Subjects compared a few at a time: each worker has a fake LLM server per agent of its own (a
// server's script and request log belong to one run at a time), and pig and Pi observe the same
// subject side by side. Results keep the subjects' order.
import { type FakeLlm, startFakeLlm } from "../../test/helpers/fake-llm/server.ts";
import type { Agent } from "./observe-agent.ts";

export type AgentLlms = Record<Agent, FakeLlm>;

export async function withLlms<R>(work: (llms: AgentLlms) => Promise<R>): Promise<R> {
  const llms: AgentLlms = { pi: await startFakeLlm({ mode: "text" }), pig: await startFakeLlm({ mode: "text" }) };
  try {
    return await work(llms);
  } finally {
    await Promise.all([llms.pi.close(), llms.pig.close()]);
  }
}

/** `work` over `items` with `jobs` workers; each result in the place of its item. */
export async function inWorkers<T, R>(items: readonly T[], jobs: number, work: (item: T, llms: AgentLlms) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = () =>
    withLlms(async (llms) => {
      for (let at = next++; at < items.length; at = next++) results[at] = await work(items[at]!, llms);
    });
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return results;
}
