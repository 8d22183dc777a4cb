import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ANSWER_START_MS,
  type AutoKey,
  autoKeyText,
  autoServiceDir,
  type ForwardTarget,
  forward,
  forwardTarget,
  hookEventOf,
  hookOutput,
  NO_DECISION,
  replaceAutoService,
  startAutoService,
} from '../service/index.js';
import type { Io } from './output.js';
import { EXIT } from './output.js';
import type { HookArgs } from './types.js';

/** The timeout of a forwarded call, from AUTOMODE_FORWARD_TIMEOUT_MS when it is a positive number. */
function forwardTimeout(env: NodeJS.ProcessEnv): number | undefined {
  const ms = Number(env.AUTOMODE_FORWARD_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/**
 * All of a stream as UTF-8. node:stream/consumers would do it, but loads the web streams with it, which a hook
 * call started for one answer pays for at every call.
 */
function allOf(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer | string) =>
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
    );
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.once('error', reject);
  });
}

/** The answer to a call when the hook's own command line is wrong: ask, never a block and never an allow. */
export function badInvocationAnswer(input: string, problem: string): string {
  const event = hookEventOf(input);
  if (!event) return NO_DECISION;
  return hookOutput(event, 'ask', `automode hook was called with a bad option: ${problem}`);
}

/**
 * Answers the call of a hook whose command line is wrong (Claude Code would read exit 2 as a block of every
 * call): reads the input if it can and prints the ask. The caller has reported the problem on stderr.
 */
export async function answerBadInvocation(problem: string, io: Io): Promise<number> {
  const input = await allOf(process.stdin).catch(() => '');
  io.out(badInvocationAnswer(input, problem));
  return EXIT.ok;
}

/** What the process that starts the hook tells it: what to do before the classifier loads (it sets V8 flags), and
 * for `--serve`, the command that starts a service and the hook's own arguments. */
export interface HookStart {
  beforeDeciding?: () => void;
  /** The script that runs automode (bin/automode.js); without it, `--serve` never starts a service. */
  bin?: string;
  /** The hook's command line as given. */
  argv?: readonly string[];
}

/** The hook's options that shape a decision, for the service `--serve` starts: all but --serve and --forward. */
export function decisionArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--serve' || word.startsWith('--forward=')) continue;
    if (word === '--forward') {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-')) i++;
      continue;
    }
    out.push(word);
  }
  return out;
}

/** What identifies this build of automode: the file this code runs from, rewritten by every build. */
function buildId(): string {
  try {
    const s = statSync(fileURLToPath(import.meta.url));
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return '';
  }
}

/**
 * The service's answer, or undefined when this process must decide (nothing listens, not the service, or, with
 * `firstByteMs`, a service that sent nothing that soon: `onHung` is told).
 */
async function forwarded(
  input: string,
  target: ForwardTarget,
  io: Io,
  firstByteMs?: number,
  onHung?: () => void,
): Promise<string | undefined> {
  const result = await forward(input, target, forwardTimeout(process.env), firstByteMs);
  if (result.kind === 'answer') return result.body;
  if (result.kind === 'hung') {
    io.err(`automode: the service of --serve: ${result.reason}; deciding here and replacing it`);
    onHung?.();
    return undefined;
  }
  if (result.kind === 'untrusted') io.err(`automode: ${result.reason}; deciding here`);
  if (result.kind === 'bad') {
    io.err(`automode: the service ${result.reason}; no decision`);
    return NO_DECISION;
  }
  return undefined;
}

/** What `automode hook` prints for one hook input: the service's answer when forwarding, else decided here. */
export async function hookAnswer(
  input: string,
  args: HookArgs,
  io: Io,
  start: HookStart = {},
): Promise<string> {
  if (args.serve && args.forward !== undefined) {
    io.err('automode: --serve and --forward name two services: give one');
    return badInvocationAnswer(input, '--serve and --forward name two services');
  }
  if (args.forward !== undefined) {
    const target = forwardTarget(args.forward);
    if (target && 'error' in target) {
      io.err(`automode: --forward: ${target.error}`);
      return badInvocationAnswer(input, `--forward: ${target.error}`);
    }
    const answer = target && (await forwarded(input, target, io));
    if (answer !== undefined) return answer;
  }
  if (args.serve) {
    const key: AutoKey = {
      argv: decisionArgv(start.argv ?? []),
      env: process.env,
      cwd: process.cwd(),
      build: buildId(),
    };
    const text = autoKeyText(key);
    const dir = autoServiceDir(key, text);
    const target = forwardTarget('', { AUTOMODE_SERVICE_DIR: dir });
    let hung = false;
    const answer =
      target &&
      !('error' in target) &&
      (await forwarded(input, { ...target, key: text }, io, ANSWER_START_MS, () => {
        hung = true;
      }));
    if (typeof answer === 'string') return answer;
    const here = await decideHere(input, args, io, start);
    if (hung) await replaceAutoService(dir);
    if (start.bin) {
      try {
        startAutoService(key, start.bin);
      } catch (e) {
        // The answer stands: without a service every call is decided here, as without --serve.
        io.err(`automode: no service for --serve (${(e as Error).message}); this call was decided here`);
      }
    }
    return here;
  }
  return decideHere(input, args, io, start);
}

async function decideHere(input: string, args: HookArgs, io: Io, start: HookStart): Promise<string> {
  // The classifier loads only when this process decides: a call the service answers never pays for it.
  start.beforeDeciding?.();
  const { answerHere } = await import('./hook-local.js');
  return answerHere(input, args, io);
}

/** The hook command itself: reads the hook input on stdin and prints the answer; it always exits 0. */
export async function runHook(args: HookArgs, io: Io, start: HookStart = {}): Promise<number> {
  let input: string;
  try {
    input = await allOf(process.stdin);
  } catch (e) {
    io.out(
      hookOutput('PreToolUse', 'ask', `automode could not read the hook input: ${(e as Error).message}`),
    );
    return EXIT.ok;
  }
  io.out(await hookAnswer(input, args, io, start));
  return EXIT.ok;
}
