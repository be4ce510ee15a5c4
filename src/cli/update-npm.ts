/** An npm install of pig (`npm i -g pig-coding-agent`): found from the running binary's path, and updated with npm. */
export interface NpmInstall {
  packageDir: string;
  prefix: string;
  version: string;
}

export function findNpmInstall(_execPath: string): NpmInstall | undefined {
  throw new Error("not available in this build");
}

export async function updateNpmInstall(_install: NpmInstall, _version: string, _log: (line: string) => void): Promise<void> {
  throw new Error("not available in this build");
}
