/**
 * tool_search's ranking: names outweigh descriptions, more of the query's words outrank fewer,
 * a query that is a tool's name comes first, schemas and namespaces count, any script splits
 * into words.
 */
import { expect, test } from "bun:test";
import { rankedDocument, rankTools, searchWords } from "../../src/tools/tool-ranking.ts";

const doc = (name: string, description: string, parameters: unknown = {}, namespace?: { name: string; description?: string }) =>
  rankedDocument({ name, description, parameters }, namespace);

test("words: identifiers split at case changes, stop words out, plurals singular, any script", () => {
  expect(searchWords("searchIssues for the OPEN_requests")).toEqual(["search", "issue", "open", "request"]);
  expect(searchWords("搜索记录").length).toBeGreaterThan(1);
  expect(searchWords("café")).toEqual(searchWords("cafe\u0301"));
});

test("a query word in a name outranks mentions in descriptions; more words matched outrank fewer", () => {
  const docs = [
    doc("mention", "window window window screenshot helpers for the window"),
    doc("window", "Moves things"),
    doc("capture", "Takes a screenshot of a window"),
  ];
  expect(rankTools("window", docs, 3)[0]).toBe("window");
  // Two of two words beat one of two, whatever the score: `window` (a name match) comes last.
  expect(rankTools("screenshot window", docs, 3)).toEqual(["capture", "mention", "window"]);
});

test("a query that is a tool's name, or its part after __, comes first; the limit holds; nothing matches nothing", () => {
  const docs = [doc("mcp__app__thread_read", "Read a thread"), doc("thread_list", "List threads and read them"), doc("other", "Unrelated")];
  expect(rankTools("thread_read", docs, 5)[0]).toBe("mcp__app__thread_read");
  expect(rankTools("thread", docs, 1)).toHaveLength(1);
  expect(rankTools("zebra", docs, 5)).toEqual([]);
  expect(rankTools("the", docs, 5)).toEqual([]);
});

test("argument schemas (through local references) and namespaces are searched", () => {
  const schema = { type: "object", properties: { filter: { $ref: "#/$defs/F" } }, $defs: { F: { type: "object", properties: { assignee: { type: "string" } } } } };
  const docs = [doc("find", "Finds things", schema), doc("other", "Something else"), doc("jira_get", "Gets one", {}, { name: "mcp__jira", description: "Issue tracker" })];
  expect(rankTools("assignee", docs, 3)).toEqual(["find"]);
  expect(rankTools("tracker", docs, 3)).toEqual(["jira_get"]);
});
