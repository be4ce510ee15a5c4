/**
 * Which environment variables hold credentials. One rule for everything pig starts that must not
 * inherit them: extension processes and the commands the model runs with the bash tool.
 *
 * A variable is a credential when pig's provider catalogue names it as a provider's key, when a
 * configuration (models.json, auth.json, an extension's provider) names it as a key or a header
 * value, or when its name reads like a secret's: a `TOKEN`, `SECRET`, `PASSWORD`/`PASSWD` or
 * `APIKEY` word, an `ACCESS_KEY`, or a name ending in `_KEY` (`OPENAI_API_KEY`,
 * `AWS_SECRET_ACCESS_KEY`, `GH_TOKEN`, `DB_PASSWORD`, `PRIVATE_KEY`).
 */
import { AMBIENT_CREDENTIAL_VARS } from "./ambient-credentials.ts";
import { PROVIDERS } from "./catalogue/providers.generated.ts";

const SECRET_WORDS = new Set(["TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY"]);

/** The variables pig's own providers read their keys from. */
export const CATALOGUE_KEY_VARS: readonly string[] = [...new Set([...PROVIDERS.flatMap((p) => p.envKeys), ...AMBIENT_CREDENTIAL_VARS])];

let catalogueUpper: ReadonlySet<string> | undefined;

/** The catalogue's key variables upper-cased, built once: a rule is made for every command the model runs. */
function catalogueKeyVarsUpper(): ReadonlySet<string> {
  catalogueUpper ??= new Set(CATALOGUE_KEY_VARS.map((name) => name.toUpperCase()));
  return catalogueUpper;
}

/** A value in a configuration that could be the name of an environment variable (`MY_KEY`). */
export function looksLikeVariableName(value: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(value);
}

/**
 * What hasSecretName answered for each name asked about. A process has a few dozen variables and
 * every command the model runs asks about all of them again: the answer depends on the name only.
 */
const secretNameAnswers = new Map<string, boolean>();

/** Whether `name` reads like a secret's name, whatever its value. */
export function hasSecretName(name: string): boolean {
  let answer = secretNameAnswers.get(name);
  if (answer === undefined) {
    answer = readsLikeSecret(name);
    secretNameAnswers.set(name, answer);
  }
  return answer;
}

function readsLikeSecret(name: string): boolean {
  const upper = name.toUpperCase();
  const words = upper.split("_").filter((word) => word !== "");
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  if (upper.includes("ACCESS_KEY") || upper.includes("API_KEY")) return true;
  return words.length > 0 && words.at(-1) === "KEY";
}

/** The credential rule with the names a configuration gives (matched without case, as the patterns are). */
export class CredentialVars {
  /** The configuration's names beyond the catalogue's, upper-cased. */
  private readonly named: ReadonlySet<string>;
  private namedKey: string | undefined;

  constructor(named: Iterable<string> = []) {
    this.named = new Set([...named].map((name) => name.toUpperCase()));
  }

  /** The configuration's names as one string: two rules with the same key answer alike. */
  get key(): string {
    this.namedKey ??= [...this.named].sort().join("\n");
    return this.namedKey;
  }

  has(name: string): boolean {
    return this.isNamed(name) || hasSecretName(name);
  }

  /** Whether the catalogue or a configuration names `name` as a key (the patterns aside). */
  isNamed(name: string): boolean {
    const upper = name.toUpperCase();
    return catalogueKeyVarsUpper().has(upper) || this.named.has(upper);
  }
}

/**
 * `env` without its credentials, except those named in `passThrough` (exact names). Variables
 * without a value are left out.
 */
export function withoutCredentials(
  env: Readonly<Record<string, string | undefined>>,
  credentials: CredentialVars,
  passThrough: readonly string[] = [],
): Record<string, string> {
  const kept = new Set(passThrough);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (credentials.has(name) && !kept.has(name)) continue;
    out[name] = value;
  }
  return out;
}
