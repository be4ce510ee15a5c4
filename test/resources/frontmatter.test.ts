import { describe, expect, test } from "bun:test";
import { fieldAt, FrontmatterError, misspeltFields, parseFrontmatter } from "../../src/resources/frontmatter.ts";

describe("frontmatter", () => {
  test("invalid YAML is placed at the file line where the frontmatter stops parsing", () => {
    const text = "---\nname: x\ndescription: ok\nbad: [open\n---\nbody";
    const error = (() => {
      try {
        parseFrontmatter(text);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(FrontmatterError);
    expect((error as FrontmatterError).line).toBe(4);
    expect((error as Error).message).toStartWith("invalid YAML frontmatter at line 4 (");
  });

  test("a list or a bare value is not fields; empty frontmatter is no fields at all", () => {
    expect(parseFrontmatter("---\n- a\n---\nb").problem).toBe('the frontmatter must be fields ("name: value" lines), not a list');
    expect(parseFrontmatter("---\njust words\n---\nb").problem).toBe('the frontmatter must be fields ("name: value" lines), not the value "just words"');
    expect(parseFrontmatter("---\n---\nbody")).toEqual({ fields: {}, body: "body" });
  });

  test("fields are placed on their line; only near misses of known fields are named", () => {
    const text = "---\nname: x\ndescripton: y\nmodel: z\n---\n";
    expect(fieldAt(text, "descripton")).toBe('"descripton" (line 3)');
    expect(misspeltFields(text, parseFrontmatter(text).fields, ["name", "description"])).toEqual([
      'frontmatter field "descripton" (line 3) is not one pig knows (did you mean "description"?); ignored',
    ]);
  });
});
