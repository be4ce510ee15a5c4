/**
 * `dist/pig` starts with JavaScriptCore's tier-up thresholds scaled up (`--compile-jit-policy`,
 * scripts/build-flags.ts). A `-p` run is over before most of its code would pay back being
 * compiled: not compiling it makes the run faster and leaves the compiler's code and output out
 * of memory. Hot loops still reach the optimising tiers, only later. The modes that run long or
 * walk large files from the start (interactive, RPC, `pig sessions`) put the normal policy back
 * before they begin; the extension runner does once pig tells it that its mode is one of those.
 */
export function useNormalJitPolicy(): void {
  Bun.unsafe.setJITPolicy(1);
}
