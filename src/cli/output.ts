import { createColors } from 'picocolors';
import type { Colors } from '../shared/index.js';

/** Colour only when writing to a terminal, and never when NO_COLOR is set or FORCE_COLOR=0. */
export function colorsFor(stream: NodeJS.WriteStream): Colors {
  const env = process.env;
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
  const enabled = env.NO_COLOR === undefined && env.FORCE_COLOR !== '0' && (forced || stream.isTTY === true);
  return createColors(enabled);
}

export interface Io {
  out(text: string): void;
  err(text: string): void;
  colors: Colors;
  errColors: Colors;
}

let pipeGuarded = false;

/** A reader that stops early (`automode explain … | head`) ends the output, not the process with a stack trace. */
function endQuietlyOnClosedPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit();
  });
}

export function processIo(): Io {
  endQuietlyOnClosedPipe();
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    colors: colorsFor(process.stdout),
    errColors: colorsFor(process.stderr),
  };
}

export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;
