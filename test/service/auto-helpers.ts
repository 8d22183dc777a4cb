import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { autoServicesRoot } from '../../src/service/auto.js';
import { readServiceRecord } from '../../src/service/index.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Stops every service `automode hook --serve` started under `home`: waits (10 s at most) for the ones still
 * starting to write their record, then ends them and waits for them to exit.
 */
export async function stopAutoServices(home: string): Promise<void> {
  const root = autoServicesRoot({ HOME: home });
  if (!existsSync(root)) return;
  const folders = readdirSync(root).map((name) => join(root, name));
  const pids: number[] = [];
  for (const dir of folders) {
    for (let i = 0; i < 100 && !readServiceRecord(dir) && existsSync(join(dir, 'starting')); i++)
      await new Promise((r) => setTimeout(r, 100));
    const record = readServiceRecord(dir);
    if (record && alive(record.pid)) {
      process.kill(record.pid, 'SIGTERM');
      pids.push(record.pid);
    }
  }
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
}
