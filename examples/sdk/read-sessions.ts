/**
 * Read sessions without running an agent: list this project's sessions and print the context
 * of the most recent one.
 * Run: bun examples/sdk/read-sessions.ts [session-directory]
 */
import { listSessions, SessionStore } from "pig-coding-agent";
import { resolveSessionDir } from "pig-coding-agent/session-paths";

const dir = process.argv[2] ?? resolveSessionDir(process.cwd());
const [latest] = listSessions(dir);
if (!latest) {
  console.log(`No sessions in ${dir}`);
} else {
  console.log(`${latest.path}: ${latest.messageCount} messages, first: ${latest.firstMessage}`);
  const store = SessionStore.open(latest.path);
  const context = store.buildContext();
  for (const message of context.messages) console.log(`- ${message.role}`);
  store.close();
}
