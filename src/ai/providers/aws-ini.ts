/**
 * The INI dialect of `~/.aws/credentials` and `~/.aws/config`: `[section]` headers, `key = value`
 * lines, `#` and `;` comments, indented lines continuing a sub-section (`s3 =` then `  key = v`,
 * which pig skips: nothing it reads lives there). Keys are lower-cased, as the AWS tools treat them.
 */

export type IniSections = Map<string, Map<string, string>>;

export class IniError extends Error {}

export function parseAwsIni(text: string, file: string): IniSections {
  const sections: IniSections = new Map();
  let current: Map<string, string> | undefined;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (/^\s/.test(raw) && current) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      const name = header[1]!.trim().replace(/\s+/g, " ");
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      continue;
    }
    const at = line.indexOf("=");
    // The line itself is not quoted: it may be a secret pasted on its own.
    if (at <= 0) throw new IniError(`${file}:${i + 1}: expected "[section]" or "key = value"`);
    if (!current) throw new IniError(`${file}:${i + 1}: "${line.slice(0, at).trim()}" comes before any [section]`);
    current.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim());
  }
  return sections;
}
