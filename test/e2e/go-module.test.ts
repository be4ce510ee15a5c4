/**
 * The Go module as a user gets it: `scripts/release.ts --go-proxy` writes a module proxy
 * directory, and a Go project outside the repository fetches the SDK from it with `go get`
 * (GOPROXY=file://…, no network, every Go cache in a temp dir), then builds a program that
 * drives the built pig over RPC and an extension that pig loads. Needs `go`.
 */
import { beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { extensionWorlds } from "../helpers/extension-worlds.ts";
import { pigBinary } from "../helpers/binary.ts";
import { describeNeeding } from "../helpers/needs.ts";
import { runProgram as run, runProgramOk as ok } from "../helpers/run-program.ts";
import { tempDir } from "../helpers/tmp.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const GO = Bun.which("go");
const MODULE = "github.com/pig-coding-agent/pig/sdk/go";
const VERSION = "1.2.3";

const { world } = extensionWorlds();

const RPC_PROGRAM = `package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"${MODULE}/rpc"
)

func main() {
	c, err := rpc.Start(rpc.Options{Binary: os.Args[1], Args: []string{"--no-session"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := c.PromptAndWait(ctx, os.Args[2], nil)
	if errors.Is(err, rpc.ErrAborted) {
		fmt.Fprintln(os.Stderr, "aborted:", err)
		os.Exit(3)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(res.Text)
	if err := c.Close(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`;

const EXTENSION_PROGRAM = `package main

import (
	"encoding/json"
	"log"
	"strings"

	sdk "${MODULE}"
)

func main() {
	err := sdk.Run(func(x *sdk.Extension) {
		x.RegisterTool(sdk.Tool{
			Name:        "shout",
			Description: "Says the text in capitals",
			Parameters:  json.RawMessage(\`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}\`),
			Execute: func(c *sdk.ToolContext, args json.RawMessage) (sdk.ToolResult, error) {
				var in struct{ Text string }
				if err := json.Unmarshal(args, &in); err != nil {
					return sdk.ToolResult{}, err
				}
				return sdk.ToolResult{Content: []sdk.Content{sdk.Text(strings.ToUpper(in.Text) + " (from the fetched module)")}}, nil
			},
		})
	})
	if err != nil {
		log.Fatal(err)
	}
}
`;

describeNeeding("go", GO !== null, "Go module through a module proxy", () => {
  let proxy = "";
  let releaseOutput = "";
  /** Go's environment: the proxy directory as the only source, every cache and home in a temp dir. */
  let goEnv: Record<string, string> = {};
  let project = "";

  beforeAll(async () => {
    const out = tempDir("pig-goproxy-");
    const release = await ok([process.execPath, join(ROOT, "scripts", "release.ts"), "--version", VERSION, "--go-proxy", "--no-binaries", "--out", out], ROOT, {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
    });
    releaseOutput = release.stdout;
    proxy = join(out, "goproxy");
    const home = tempDir("pig-gohome-");
    goEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      GOPATH: join(home, "go"),
      GOMODCACHE: join(home, "go", "pkg", "mod"),
      GOCACHE: join(home, "cache"),
      GOENV: "off",
      GOPROXY: `file://${proxy}`,
      GOSUMDB: "off",
      GOFLAGS: "-mod=mod",
      GOWORK: "off",
      // A newer go must not fetch another toolchain: only the proxy directory is reachable.
      GOTOOLCHAIN: "local",
      GO111MODULE: "on",
      CGO_ENABLED: "0",
    };
    project = tempDir("pig-goproject-");
    await ok([GO!, "mod", "init", "example.com/user"], project, goEnv);
    await ok([GO!, "get", `${MODULE}@v${VERSION}`], project, goEnv);
  }, 180_000);

  test("the proxy holds the version; go get records it with the hashes the release printed", () => {
    const versions = join(proxy, MODULE, "@v");
    expect(readdirSync(versions).sort()).toEqual(["list", `v${VERSION}.info`, `v${VERSION}.mod`, `v${VERSION}.zip`]);
    expect(readFileSync(join(versions, "list"), "utf8")).toBe(`v${VERSION}\n`);
    expect(JSON.parse(readFileSync(join(versions, `v${VERSION}.info`), "utf8"))).toMatchObject({ Version: `v${VERSION}` });
    expect(readFileSync(join(versions, `v${VERSION}.mod`), "utf8")).toBe(readFileSync(join(ROOT, "sdk", "go", "go.mod"), "utf8"));
    expect(readFileSync(join(project, "go.mod"), "utf8")).toContain(`require ${MODULE} v${VERSION}`);
    const goSum = readFileSync(join(project, "go.sum"), "utf8").trim().split("\n");
    const printed = [...releaseOutput.matchAll(new RegExp(`^\\s*(?:go\\.sum: )?\\s*(${MODULE.replaceAll(".", "\\.")} v\\S+ h1:\\S+)$`, "gm"))].map((m) => m[1]);
    expect(printed).toHaveLength(2);
    expect(goSum.sort()).toEqual(printed.sort() as string[]);
  });

  test("the fetched module holds the SDK's packages and nothing of the rest of the repository", () => {
    const fetched = join(goEnv.GOMODCACHE!, `${MODULE}@v${VERSION}`);
    const top = readdirSync(fetched).sort();
    expect(top).toContain("go.mod");
    expect(top).toContain("extension.go");
    expect(top).toEqual(expect.arrayContaining(["rpc", "sessionfile", "internal", "README.md"]));
    for (const name of top) expect(name).not.toMatch(/^(bin|dist|node_modules|examples|src|\..*)$/);
    const list = Bun.spawnSync([GO!, "list", "-m", "-json", MODULE], { cwd: project, env: goEnv, stdout: "pipe", stderr: "pipe" });
    expect(JSON.parse(list.stdout.toString())).toMatchObject({ Path: MODULE, Version: `v${VERSION}`, Dir: fetched });
  });

  test("a program built against the fetched rpc package drives pig and prints the answer", async () => {
    const dir = join(project, "cmd", "ask");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "main.go"), RPC_PROGRAM);
    const bin = join(project, "bin", "ask");
    await ok([GO!, "build", "-o", bin, "./cmd/ask"], project, goEnv);
    const w = await world({ responses: [{ text: "Forty-two, from the fake model." }] });
    const asked = await run([bin, pigBinary(), "what is the answer?"], w.cwd, w.env);
    expect(asked).toMatchObject({ code: 0, stdout: "Forty-two, from the fake model.\n" });
    expect(JSON.stringify(w.llm.requests[0]!.body)).toContain("what is the answer?");
  }, 120_000);

  test("an extension built against the fetched module loads in pig and its tool answers the model", async () => {
    const dir = join(project, "cmd", "shout");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "main.go"), EXTENSION_PROGRAM);
    await ok([GO!, "build", "-o", join(dir, "shout"), "./cmd/shout"], project, goEnv);
    writeFileSync(join(dir, "pig-extension.json"), JSON.stringify({ name: "shout", protocol: "pig-ext/1", command: ["./shout"] }));
    const w = await world({ responses: [{ toolCalls: [{ name: "shout", arguments: { text: "hello" } }] }, { text: "done" }] });
    const ran = await w.run(["-e", dir, "-p", "shout hello"]);
    expect(ran.stderr).not.toContain("Failed to load extension");
    expect(ran).toMatchObject({ code: 0, stdout: "done\n" });
    expect(JSON.stringify(w.llm.requests[1]!.body)).toContain("HELLO (from the fetched module)");
  }, 120_000);
});
