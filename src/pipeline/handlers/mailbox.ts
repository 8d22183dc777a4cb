import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeDirectories } from '../../shared/index.js';

export type MailboxMessage = Record<string, unknown> & { type: string };

/**
 * A mailbox of JSON files: one folder per recipient, one file per message, written to a temporary name and
 * renamed so a reader never sees half a message. Any process that shares the folder can take part.
 */
export class FileMailbox {
  constructor(readonly dir: string) {}

  private inbox(name: string): string {
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.')) throw new Error(`invalid mailbox name ${name}`);
    return path.join(this.dir, name);
  }

  async send(to: string, message: MailboxMessage): Promise<void> {
    const inbox = this.inbox(to);
    makeDirectories(inbox);
    const name = `${Date.now().toString().padStart(15, '0')}-${randomBytes(6).toString('hex')}`;
    const temp = path.join(inbox, `.${name}.tmp`);
    await writeFile(temp, JSON.stringify(message));
    await rename(temp, path.join(inbox, `${name}.json`));
  }

  /**
   * Takes the messages that `match` accepts, oldest first; the others stay. A file that is not a JSON message
   * is set aside as `.bad`.
   */
  async take(name: string, match: (m: MailboxMessage) => boolean = () => true): Promise<MailboxMessage[]> {
    const inbox = this.inbox(name);
    let files: string[];
    try {
      files = (await readdir(inbox)).filter((f) => f.endsWith('.json') && !f.startsWith('.')).sort();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const taken: MailboxMessage[] = [];
    for (const f of files) {
      const file = path.join(inbox, f);
      let message: unknown;
      try {
        message = JSON.parse(await readFile(file, 'utf8'));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
        await rename(file, `${file}.bad`).catch(() => undefined);
        continue;
      }
      const ok =
        typeof message === 'object' &&
        message !== null &&
        typeof (message as MailboxMessage).type === 'string';
      if (!ok) {
        await rename(file, `${file}.bad`).catch(() => undefined);
        continue;
      }
      if (!match(message as MailboxMessage)) continue;
      await rm(file, { force: true });
      taken.push(message as MailboxMessage);
    }
    return taken;
  }
}
