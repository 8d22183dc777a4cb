import path from 'node:path';

/**
 * Points the process at a home folder and managed settings under `dir` and takes away any model configuration,
 * so that CLI and agent runs in a test read only the settings the test writes. Returns the function that puts
 * the environment back.
 */
export function isolateCliEnv(dir: string, alsoUnset: readonly string[] = []): () => void {
  const saved = { ...process.env };
  process.env.HOME = path.join(dir, 'home');
  process.env.AUTOMODE_MANAGED_SETTINGS = path.join(dir, 'none.json');
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'AUTOMODE_MODEL', ...alsoUnset])
    delete process.env[name];
  return () => {
    process.env = saved;
  };
}
