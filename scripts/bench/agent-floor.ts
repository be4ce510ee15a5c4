// The floor of a print-mode run: the least agent there can be, compiled like pig (build-floor.ts),
// raced in agent.ts's rounds beside pig and Pi. It starts, reads a request body from a file
// (agent.ts gives it the body of pig's own first request: the same system prompt, tools and
// prompt, so the round trips carry the same bytes), sends it as one streamed chat completions
// request, reads the answer's frames, runs each tool call it gets (`bash` as its own `/bin/bash
// -c` process, `read` as one file read), sends the body again with the call and its result
// added, and prints the final text. No session file, no settings, no checks of what comes back:
// what it takes is the runtime's start, the round trips and the tools' own work, which every
// agent pays.
//   <floor> URL BODY_FILE
import { buildFloor } from "./build-floor.ts";

const SOURCE = `import { readFileSync, writeSync } from "node:fs";
const [url, bodyFile] = process.argv.slice(2) as [string, string];
interface Call { id: string; name: string; args: string }
const body = JSON.parse(readFileSync(bodyFile, "utf8"));
const messages: unknown[] = body.messages;

async function ask(): Promise<{ text: string; calls: Call[] }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer fake-key" },
    body: JSON.stringify(body),
  });
  if (!response.ok || response.body === null) throw new Error(\`\${url}: HTTP \${response.status}\`);
  let text = "";
  const calls: Call[] = [];
  let pending = "";
  const decoder = new TextDecoder();
  for await (const bytes of response.body) {
    pending += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = pending.indexOf("\\n")) >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const delta = JSON.parse(line.slice(6)).choices?.[0]?.delta;
      if (delta === undefined) continue;
      if (typeof delta.content === "string") text += delta.content;
      for (const part of delta.tool_calls ?? []) {
        const call = (calls[part.index] ??= { id: "", name: "", args: "" });
        if (part.id) call.id = part.id;
        if (part.function?.name) call.name = part.function.name;
        call.args += part.function?.arguments ?? "";
      }
    }
  }
  return { text, calls };
}

async function run(call: Call): Promise<string> {
  const args = JSON.parse(call.args || "{}");
  if (call.name === "read") return await Bun.file(args.path).text();
  const shell = Bun.spawn(["/bin/bash", "-c", String(args.command)], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(shell.stdout).text(), new Response(shell.stderr).text(), shell.exited]);
  return out + err || "(no output)";
}

for (;;) {
  const { text, calls } = await ask();
  if (calls.length === 0) {
    // As pig writes it: one blocking write to fd 1 (\`process.stdout\` alone costs ~6-20 ms to make),
    // then the exit, which an idle keep-alive connection would otherwise hold back.
    writeSync(1, \`\${text}\\n\`);
    process.exit(0);
  }
  messages.push({ role: "assistant", content: text || null, tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })) });
  for (const call of calls) messages.push({ role: "tool", tool_call_id: call.id, content: await run(call) });
}
`;

/** Builds the floor program in `dir`; the path of the executable. */
export function buildAgentFloor(dir: string): string {
  return buildFloor(dir, "agent-floor", SOURCE);
}
