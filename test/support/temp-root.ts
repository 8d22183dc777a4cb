import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Vitest global set-up: every temp folder a test, or a program it starts, makes goes into one folder of this run
 * (TMPDIR, which `os.tmpdir()` and the programs read), removed when the run ends, so a run leaves nothing in the
 * system's temp folder whether or not each test cleans up after itself. The name is short: Unix socket paths
 * made below it must stay under 108 bytes.
 */
export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'amt-'));
  process.env.TMPDIR = root;
  // A run started inside a Claude Code session must not read that session's project settings.
  delete process.env.CLAUDE_PROJECT_DIR;
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
