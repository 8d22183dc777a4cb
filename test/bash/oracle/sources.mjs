// Loads the repository's TypeScript modules outside vitest, through a vite server in middleware mode: for the
// oracles' command-line runners.
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

/** A vite server on the repository; `ssrLoadModule('/src/...')` loads a module, `close()` ends it. */
export function sourceServer() {
  return createServer({
    root: fileURLToPath(new URL('../../..', import.meta.url)),
    logLevel: 'error',
    configFile: false,
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    optimizeDeps: { noDiscovery: true },
  });
}
