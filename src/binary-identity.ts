/**
 * What a Piglet Binary says about itself (`pig build --name --binary-version --piglet`): its
 * name, its own version, its default Piglet, and the Piglets built into it. The binary's
 * generated entry module sets it before pig's CLI starts; a plain pig has none of it. Nothing
 * here imports anything, so `--version` can read it at no cost.
 */

/** A Piglet built into the binary: its resolved fields and the skill and prompt files it needs. */
export interface BuiltInPigletData {
  name: string;
  description: string;
  model?: string;
  thinking?: string;
  tools?: string[];
  system?: string;
  appendSystem?: string;
  /** The Piglet named an `extensions` list: only the linked ones (and the command line's) load. */
  selectsExtensions: boolean;
  /** Paths inside `files` (relative), one per skill or prompt-template path the Piglet named. */
  skills?: string[];
  prompts?: string[];
  /** Relative path → [base64 content, file mode]. */
  files: Record<string, [string, number]>;
  /** Of the fields and files: where they are unpacked, and when to unpack again. */
  hash: string;
  /** Where it was built from (for messages). */
  source: string;
}

export interface BinaryIdentity {
  /** The binary's own name (`--name`); pig's when not given. */
  name?: string;
  /** The binary's own version (`--binary-version`). */
  version?: string;
  /** The Piglet a run uses when none is named and the session recorded none. */
  defaultPiglet?: string;
  piglets: readonly BuiltInPigletData[];
}

let identity: BinaryIdentity = { piglets: [] };

/** Called once, by a Piglet Binary's entry module. */
export function configureBinary(given: BinaryIdentity): void {
  identity = { ...given, piglets: [...given.piglets] };
}

export function binaryIdentity(): BinaryIdentity {
  return identity;
}
