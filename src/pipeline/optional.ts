// Packages only some pipeline features need. They are optional peer dependencies of automode (and dev
// dependencies at the same versions), so a hook user's install does not carry them; each loads with import()
// where the feature starts, through loadOptional, which says what to install when it is missing.

/** Each optional package and the exact version automode is built and tested with (package.json pins the same). */
export const OPTIONAL_PACKAGES = {
  '@modelcontextprotocol/sdk': '1.32.2',
  '@anthropic-ai/sandbox-runtime': '0.0.83',
  turndown: '7.2.5',
} as const;

export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/** The command that installs an optional package at its pinned version. */
export function installCommand(name: OptionalPackage): string {
  return `npm install ${name}@${OPTIONAL_PACKAGES[name]}`;
}

/** An optional package a feature needs is not installed. */
export class MissingOptionalPackageError extends Error {
  readonly packageName: OptionalPackage;
  constructor(name: OptionalPackage, feature: string, options?: ErrorOptions) {
    super(
      `automode: ${feature} needs ${name}@${OPTIONAL_PACKAGES[name]}; install it: ${installCommand(name)}`,
      options,
    );
    this.name = 'MissingOptionalPackageError';
    this.packageName = name;
  }
}

/**
 * Whether an import failed because `name` itself (not one of its own dependencies) cannot be found: Node's error,
 * or an error a loader wrapped it in (its `cause`).
 */
function isMissing(error: unknown, name: string): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    const names = e.message.includes(`'${name}'`) || e.message.includes(`'${name}/`);
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && names) return true;
  }
  return false;
}

/**
 * Runs `load` (an import() of `name` or one of its subpaths, written at the call site so that types and bundlers
 * follow it). When `name` is not installed, throws a MissingOptionalPackageError naming `feature` and the install
 * command; any other failure is thrown as it is.
 */
export async function loadOptional<T>(
  name: OptionalPackage,
  feature: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (isMissing(e, name)) throw new MissingOptionalPackageError(name, feature, { cause: e });
    throw e;
  }
}
