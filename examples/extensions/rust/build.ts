/**
 * Builds the Rust example extension offline with Debian's cargo and rustc (rustup's may come
 * first on PATH) from the crates Debian installs in /usr/share/cargo/registry. cargo runs in this
 * directory, so it reads .cargo/config.toml; the binary lands in ./target/release/ (gitignored),
 * where pig-extension.json expects it, and a second build with nothing changed is a no-op.
 *
 *   node_modules/.bin/bun examples/extensions/rust/build.ts
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const RUST_EXAMPLE_DIR = import.meta.dir;
export const RUST_EXAMPLE_MANIFEST = join(import.meta.dir, "pig-extension.json");
export const RUST_EXAMPLE_BINARY = join(import.meta.dir, "target", "release", "pig-rust-example");
const REGISTRY = "/usr/share/cargo/registry";

/** Debian's cargo, else any cargo on PATH; undefined without one. */
export function cargoPath(): string | undefined {
  if (existsSync("/usr/bin/cargo")) return "/usr/bin/cargo";
  return Bun.which("cargo") ?? undefined;
}

/** Whether Debian's serde_json crate sources are installed (librust-serde-json-dev). */
export function haveDebianCrates(): boolean {
  return existsSync(REGISTRY) && readdirSync(REGISTRY).some((d) => d.startsWith("serde_json-"));
}

/** Runs cargo in this directory with Debian's rustc, offline, in the release profile. */
function cargoRun(subcommand: "build" | "test"): { code: number; stdout: string; stderr: string } {
  const cargo = cargoPath();
  if (!cargo) throw new Error("cargo is not installed (apt-get install cargo librust-serde-json-dev)");
  const env: Record<string, string> = { PATH: `/usr/bin:/bin:${process.env.PATH ?? ""}`, HOME: process.env.HOME ?? "/root" };
  if (cargo === "/usr/bin/cargo" && existsSync("/usr/bin/rustc")) env.RUSTC = "/usr/bin/rustc";
  // The release profile for both, so the tests reuse the dependencies the binary was built with.
  const proc = Bun.spawnSync([cargo, subcommand, "--offline", "--release"], { cwd: RUST_EXAMPLE_DIR, env, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode ?? -1, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

/** Builds (or finds up to date) the release binary; throws with cargo's output on failure. */
export function buildRustExample(): string {
  const run = cargoRun("build");
  if (run.code !== 0) throw new Error(`cargo build failed:\n${run.stderr}`);
  return RUST_EXAMPLE_BINARY;
}

/** `cargo test`: the example's own unit tests (framing, `$/part`, the response envelope). */
export function testRustExample(): { code: number; stdout: string; stderr: string } {
  return cargoRun("test");
}

if (import.meta.main) console.log(buildRustExample());
