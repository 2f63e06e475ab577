/**
 * The real adk-js runtime is an optional dependency of the kit (peerDependenciesMeta optional, and a
 * devDependency of this repository): it is loaded on demand, and its absence is one clear message
 * naming the command that installs it, never a stack trace.
 */
export const ADK_VERSION = '2.0.0';
export const INSTALL_COMMAND = `npm install --save-dev @google/adk@${ADK_VERSION} @google/adk-devtools@${ADK_VERSION}`;

export type AdkModules = {
  adk: typeof import('@google/adk');
  devtools: typeof import('@google/adk-devtools');
  genai: typeof import('@google/genai');
};

/** Thrown when the optional real-runtime packages are missing; its message is for the user. */
export class RealAdkMissingError extends Error {
  readonly missing: string[];
  constructor(missing: string[]) {
    super(`the real adk-js runtime is not installed (missing: ${missing.join(', ')}). Install it with:\n  ${INSTALL_COMMAND}`);
    this.name = 'RealAdkMissingError';
    this.missing = missing;
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

export type Importer = (specifier: string) => Promise<unknown>;

const nativeImport: Importer = (specifier) => import(specifier);
let loading: Promise<AdkModules> | undefined;

/** Load the three packages; `importer` stands in for `import()` (tests use it to play a machine without them). */
export function loadRealAdk(importer: Importer = nativeImport): Promise<AdkModules> {
  if (importer !== nativeImport) return load(importer);
  return (loading ??= load(importer).catch((error: unknown) => { loading = undefined; throw error; }));
}

async function load(importer: Importer): Promise<AdkModules> {
  const missing: string[] = [];
  const attempt = async (name: string): Promise<unknown> => {
    try { return await importer(name); } catch (error) {
      if (isNotFound(error)) { missing.push(name); return undefined; }
      throw error;
    }
  };
  const adk = await attempt('@google/adk');
  const devtools = await attempt('@google/adk-devtools');
  // @google/adk's own dependency, installed beside it: the ApiError class ADK's Gemini path sees from genai.
  const genai = adk ? await attempt('@google/genai') : undefined;
  if (!adk || !devtools || !genai) throw new RealAdkMissingError(missing);
  // The mock replays 2.0.0; another version in the loop would report its own changes as mock defects.
  const found = (adk as { version?: unknown }).version;
  if (found !== ADK_VERSION) throw new RealAdkMissingError([`@google/adk@${ADK_VERSION} (found ${String(found)})`]);
  return { adk, devtools, genai } as AdkModules;
}
