/**
 * Command-line flags extensions register (`pi.registerFlag`). The first extension to register a
 * name owns it; a later one gets a conflict diagnostic. Values come from the command line once
 * every extension has registered (see `resolveExtensionFlags` in cli/args.ts), else the default.
 */

export type FlagType = "boolean" | "string";
export type FlagValue = boolean | string;

export interface FlagDefinition {
  name: string;
  description?: string;
  type: FlagType;
  default?: FlagValue;
}

export interface RegisteredFlag extends FlagDefinition {
  /** The extension that registered it. */
  extensionPath: string;
}

export interface FlagConflict {
  extensionPath: string;
  message: string;
}

export class FlagRegistry {
  private readonly flags = new Map<string, RegisteredFlag>();
  private readonly values = new Map<string, FlagValue>();

  /** Registers `definition` for `extensionPath`; a conflict when another extension has the name. */
  register(definition: FlagDefinition, extensionPath: string): FlagConflict | undefined {
    const owner = this.flags.get(definition.name);
    if (owner) {
      if (owner.extensionPath === extensionPath) {
        this.flags.set(definition.name, { ...definition, extensionPath });
        return undefined;
      }
      return { extensionPath, message: `Flag "--${definition.name}" conflicts with ${owner.extensionPath}` };
    }
    this.flags.set(definition.name, { ...definition, extensionPath });
    return undefined;
  }

  /** Forgets the flags of one extension (a reload registers them again); values given stay. */
  unregisterFrom(extensionPath: string): void {
    for (const [name, flag] of this.flags) if (flag.extensionPath === extensionPath) this.flags.delete(name);
  }

  get(name: string): RegisteredFlag | undefined {
    return this.flags.get(name);
  }

  /** Every flag, in registration order. */
  list(): readonly RegisteredFlag[] {
    return [...this.flags.values()];
  }

  /** Records the value given on the command line. */
  set(name: string, value: FlagValue): void {
    this.values.set(name, value);
  }

  /** The value given on the command line, else the flag's default (undefined for an unknown flag). */
  getFlag(name: string): FlagValue | undefined {
    return this.values.get(name) ?? this.flags.get(name)?.default;
  }

  /** The values of the flags one extension owns, by bare name. */
  /** Each flag's value (given, else its default), of one extension's flags or of all. */
  valuesFor(extensionPath?: string): Record<string, FlagValue> {
    const out: Record<string, FlagValue> = {};
    for (const flag of this.flags.values()) {
      if (extensionPath !== undefined && flag.extensionPath !== extensionPath) continue;
      const value = this.getFlag(flag.name);
      if (value !== undefined) out[flag.name] = value;
    }
    return out;
  }
}
