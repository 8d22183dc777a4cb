import type { Readable } from 'node:stream';

/**
 * Reads lines from a stream one request at a time; text typed ahead stays for the next request. The stream is
 * only read while a line is awaited, so an idle prompt on `process.stdin` does not keep the process alive.
 */
export class LineReader {
  private buffer = '';
  private ended = false;
  private attached = false;
  private waiter: (() => void) | undefined;

  constructor(private readonly input: Readable) {}

  private attach(): void {
    if (this.attached) return;
    this.attached = true;
    this.input.setEncoding('utf8');
    this.input.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.wake();
    });
    const end = () => {
      this.ended = true;
      this.wake();
    };
    this.input.on('end', end);
    this.input.on('error', end);
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  /** The next line without its newline; null at the end of the input or when the signal fires. */
  async next(signal?: AbortSignal): Promise<string | null> {
    this.attach();
    try {
      while (true) {
        if (signal?.aborted) return null;
        const nl = this.buffer.indexOf('\n');
        if (nl >= 0) {
          const line = this.buffer.slice(0, nl).replace(/\r$/, '');
          this.buffer = this.buffer.slice(nl + 1);
          return line;
        }
        if (this.ended) {
          const rest = this.buffer;
          this.buffer = '';
          return rest || null;
        }
        this.input.resume();
        await new Promise<void>((resolve) => {
          const onAbort = () => resolve();
          signal?.addEventListener('abort', onAbort, { once: true });
          this.waiter = () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          };
        });
      }
    } finally {
      this.waiter = undefined;
      if (!this.ended) this.input.pause();
    }
  }
}
