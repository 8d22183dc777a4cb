import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import {
  type Analysis,
  commandLine,
  effectsOf,
  fdExecPaths,
  findRoots,
  literalOutput,
  type ProducedPaths,
  producedPaths,
  type SimpleCommand,
  syntheticWord,
  type Word,
  xargsInput,
  xargsStdinInput,
  xargsWords,
} from '../bash/index.js';
import type { DecisionContext } from './context.js';
import { decideFile, LINK_HOPS } from './files.js';
import { MAX_FOLDER_ENTRIES } from './folder-contents.js';
import { isStricter, type PartVerdict } from './verdict.js';

/**
 * Programs that only read the files their operands name, whatever those are, and take a name appended at the end
 * as one more file (grep and rg after their pattern): the consumers a list of paths may be handed to at run time.
 * Each is still checked by its own spec with the folder standing for the names.
 */
const CONSUMERS = new Set(
  (
    'cat head tail wc grep egrep fgrep rg file stat md5sum sha1sum sha224sum sha256sum sha384sum sha512sum ' +
    'b2sum cksum du ls diff realpath readlink'
  ).split(' '),
);

/** How the names reach the consumer: which characters of a name would split it or change it on the way. */
type Split = 'none' | 'newline' | 'blanks' | 'fields';

/**
 * Characters that make a name arrive as something else: xargs splits at blanks and reads quotes and backslashes;
 * an unquoted `$(…)` splits at IFS and globs each piece. Anything outside printable ASCII is refused with them
 * (git quotes such names, a terminal encoding may differ).
 */
const UNSAFE: Record<Split, RegExp | undefined> = {
  none: undefined,
  newline: /\n/,
  blanks: /[^\x21-\x7e]|['"\\]/,
  fields: /[^\x21-\x7e]|['"\\*?[\]()]/,
};

/** Names of files that may hold a key as PEM text (files.ts reads which do). */
const KEY_FILE = /\.(?:pem|key|p8|pk8|crt|cer)$/i;

export interface RunTimeOperands {
  /** The consumer's words with every run-time operand replaced by the first folder its names lie below. */
  argv: Word[];
  /** The words replaced (`$(…)`), whose own effects are replaced by the reads below. */
  replaced: Word[];
  /** The reads of the folders, the links below them and the check of the names. */
  parts: PartVerdict[];
  /** What hands the names over, for the reason: `find . -name '*.py' | xargs`. */
  source: string;
}

interface Source {
  producer: SimpleCommand;
  produced: ProducedPaths;
  split: Split;
}

/**
 * The operands a consumer gets at run time, when they are paths a producer prints below known folders (`find …
 * | xargs cat`, `cat $(git ls-files)`, `find … -exec cat {} +`): the consumer's words with the folder in their
 * place, and the parts that decide reading every file below the folders, as `grep -r` would be decided, with the
 * links below them followed and no name that the way they are handed over would split. Undefined when any
 * operand comes from elsewhere, the line may create files (a write anywhere on it), or a Bash deny or ask rule
 * names the consumer.
 */
export function runTimeOperands(
  cmd: SimpleCommand,
  analysis: Analysis,
  ctx: DecisionContext,
  cwds: readonly string[] | undefined,
  writesBesides: (ids: ReadonlySet<number>) => boolean,
): RunTimeOperands | undefined {
  const program = cmd.name?.program;
  if (!program || cmd.name?.dynamic || cmd.name?.path || !CONSUMERS.has(program)) return undefined;
  if (cmd.assignments.length > 0 || cmd.redirects.length > 0 || cmd.executes.length > 0) return undefined;
  if (cwds?.length !== 1) return undefined;
  if (ctx.index.bash('deny', program).length > 0 || ctx.index.bash('ask', program).length > 0)
    return undefined;
  const cwd = cwds![0]!;
  const sources: Source[] = [];
  const involved = new Set<number>([cmd.id]);
  let argv = cmd.argv;
  const replaced: Word[] = [];
  let placeholder: Word | undefined;
  let literalWords: Word[] = [];
  let literalSource: SimpleCommand | undefined;
  const stand = (source: Source, at: Word): Word => {
    placeholder ??= syntheticWord(source.produced.roots[0]!.value, at.span);
    return placeholder;
  };
  if (cmd.nested?.extraArgs) {
    const carrier = analysis.commands.find((c) => c.id === cmd.nested!.carrier);
    if (!carrier) return undefined;
    involved.add(carrier.id);
    const handed = cmd.nested.via === 'xargs' ? viaXargs(cmd, carrier, analysis) : viaExec(cmd, carrier);
    if (!handed) return undefined;
    involved.add(handed.producer.id);
    let literal: Word[] | undefined;
    if ('words' in handed) {
      literal = handed.words.map((word) => syntheticWord(word, argv.at(-1)!.span));
      literalWords = literal;
      literalSource = handed.producer;
    } else sources.push(handed);
    const standing = (at: Word): Word[] => literal ?? [stand(handed as Source, at)];
    const marker = handed.replace;
    if (marker === undefined || (handed.appends && !argv.some((w) => w.static && w.value === marker)))
      argv = [...argv, ...standing(argv.at(-1)!)];
    else {
      if (argv.some((w) => w.value.includes(marker) && !(w.static && w.value === marker))) return undefined;
      argv = argv.flatMap((w) => {
        if (!w.static || w.value !== marker) return [w];
        replaced.push(w);
        return standing(w);
      });
    }
  } else if (cmd.nested) return undefined;
  const out: Word[] = [argv[0]!];
  for (const word of argv.slice(1)) {
    if (!word.dynamic.includes('command')) {
      out.push(word);
      continue;
    }
    const sub = substitution(word, cmd, analysis);
    if (!sub) return undefined;
    involved.add(sub.producer.id);
    if (sub.pwd) {
      if (sub.split === 'fields' && UNSAFE.fields!.test(cwd)) return undefined;
      out.push(syntheticWord('.', word.span));
    } else {
      sources.push(sub);
      out.push(stand(sub, word));
    }
    replaced.push(word);
  }
  if (sources.length === 0 && replaced.length === 0 && !literalSource) return undefined;
  if (writesBesides(involved)) return undefined;
  const parts: PartVerdict[] = literalWords.map((word) =>
    decideFile(
      {
        access: 'read',
        path: isAbsolute(word.value) ? resolve(word.value) : resolve(cwd, word.value),
        shown: `${word.value} (from ${commandLine(literalSource!)})`,
        tool: 'Bash',
        followsLinks: LINK_HOPS,
      },
      ctx,
    ),
  );
  for (const source of sources) {
    for (const root of source.produced.roots) parts.push(...rootParts(root.value, source, cwd, ctx));
  }
  const shown = [
    ...sources.map((s) => commandLine(s.producer)),
    ...(literalSource ? [commandLine(literalSource)] : []),
  ].join(', ');
  return { argv: out, replaced, parts, source: shown || 'pwd' };
}

/** What a carrier hands its command: names below known folders, or words known before the line runs. */
type Handed = (Source | { producer: SimpleCommand; words: string[] }) & {
  /** `{}` (or xargs' `-I` string) marks where they go. */
  replace?: string;
  /** Without the marker among the words they are appended (fd). */
  appends?: true;
};

/** `PRODUCER | xargs [OPTIONS] CONSUMER`: the producer right before the pipe into xargs. */
function viaXargs(cmd: SimpleCommand, xargs: SimpleCommand, analysis: Analysis): Handed | undefined {
  if (xargs.name?.program !== 'xargs' || xargs.name.dynamic) return undefined;
  const input = xargsInput({ argv: xargs.argv, assignments: xargs.assignments, program: 'xargs' });
  if (!input) return undefined;
  if (!xargs.redirects.every((r) => r.fd !== '0' && !r.op.startsWith('<') && !r.reads && !r.writes))
    return undefined;
  if (input.replace !== undefined && cmd.name?.dynamic) return undefined;
  const producer = pipedInto(xargs, analysis);
  if (!producer) return undefined;
  const replace = input.replace === undefined ? {} : { replace: input.replace };
  const printed = literalProducer(producer);
  if (printed !== undefined) {
    const words = xargsWords(printed, input);
    return words ? { producer, words, ...replace } : undefined;
  }
  const produced = producerPaths(producer);
  if (!produced) return undefined;
  if ((produced.separator === 'nul') !== (input.split === 'nul')) return undefined;
  const split: Split = input.split === 'nul' ? 'none' : input.split;
  return { producer, produced, split, ...replace };
}

/**
 * `find ROOTS … -exec CONSUMER … {} +` (or `\;`, or `-execdir`, which runs it in each name's folder on `./NAME`),
 * `fd … -x CONSUMER` (`-X`, `--exec`, `--exec-batch`, `-l`: `ls -l`): each path is handed over as it is, unsplit.
 * fd puts it in `{}`, else appends it; its other placeholders (`{/}`, `{//}`, `{.}`, `{/.}`) name other files.
 */
function viaExec(cmd: SimpleCommand, carrier: SimpleCommand): Handed | undefined {
  if (carrier.assignments.length > 0 || carrier.name?.dynamic || carrier.name?.path) return undefined;
  const via = cmd.nested?.via;
  if (carrier.name?.program === 'find' && (via === '-exec' || via === '-execdir')) {
    const roots = findRoots({ argv: carrier.argv, assignments: [], program: 'find' });
    if (!roots) return undefined;
    const follows = roots.follows || carrier.argv.some((w) => w.static && w.value === '-follow');
    const produced: ProducedPaths = {
      roots: roots.words,
      separator: 'nul',
      bare: false,
      followsLinks: follows,
      shallow: false,
    };
    return { producer: carrier, produced, split: 'none', replace: '{}' };
  }
  if (!FD_EXECS.has(via ?? '')) return undefined;
  if (cmd.argv.some((w) => FD_PLACEHOLDER.test(w.value) && w.value !== '{}')) return undefined;
  const produced = fdExecPaths({ argv: carrier.argv, assignments: [], program: carrier.name!.program });
  if (!produced) return undefined;
  return { producer: carrier, produced, split: 'none', replace: '{}', appends: true };
}

const FD_EXECS = new Set(['-x', '-X', '--exec', '--exec-batch', '-l']);
const FD_PLACEHOLDER = /\{\/?\/?\.?\}/;

/** What `echo` or `printf` prints, when it is run with its words alone, as the builtin. */
function literalProducer(producer: SimpleCommand): string | undefined {
  if (!producer.name || producer.name.dynamic || producer.name.path) return undefined;
  if (producer.nested || producer.executes.length > 0 || producer.redirects.length > 0) return undefined;
  return literalOutput({
    argv: producer.argv,
    assignments: producer.assignments,
    program: producer.name.program,
  });
}

/** The paths a producer prints, when it runs on its own words only: no assignment, no redirect of its output. */
function producerPaths(producer: SimpleCommand): ProducedPaths | undefined {
  if (!producer.name || producer.name.dynamic || producer.name.path) return undefined;
  if (producer.nested || producer.executes.length > 0 || producer.assignments.length > 0) return undefined;
  // Only its errors may go elsewhere, and only to /dev/null (`2>/dev/null`).
  if (
    !producer.redirects.every(
      (r) => r.fd === '2' && r.op === '>' && !r.writes && r.target.value === '/dev/null',
    )
  )
    return undefined;
  return producedPaths({ argv: producer.argv, assignments: [], program: producer.name.program });
}

/** The simple command whose output alone is piped into `cmd` (`P | cmd`, nothing else between them). */
function pipedInto(cmd: SimpleCommand, analysis: Analysis): SimpleCommand | undefined {
  if (!cmd.context.includes('pipeline') || cmd.nested) return undefined;
  const source = cmd.innerSource ?? analysis.source;
  // A redirection written after the producer's words (`2>/dev/null`) may lie outside its span.
  const end = (c: SimpleCommand) => Math.max(c.span.end, ...c.redirects.map((r) => r.span.end));
  return analysis.commands.find(
    (c) =>
      c.id !== cmd.id &&
      !c.nested &&
      c.innerSource === cmd.innerSource &&
      end(c) <= cmd.span.start &&
      /^[ \t]*\|[ \t]*$/.test(source.slice(end(c), cmd.span.start)),
  );
}

/** `$(P)` or `"$(P)"` (or `` `P` ``) as a whole word, P one simple command and nothing else. */
function substitution(
  word: Word,
  cmd: SimpleCommand,
  analysis: Analysis,
): (Source & { pwd?: true }) | undefined {
  if (!word.dynamic.every((d) => d === 'command')) return undefined;
  // `…` is $(…) where no backslash is inside (which backquotes would read another way).
  const quoted = /^"(?:\$\([\s\S]*\)|`[^`\\]*`)"$/.test(word.text);
  if (!quoted && !/^(?:\$\([\s\S]*\)|`[^`\\]*`)$/.test(word.text)) return undefined;
  const source = cmd.innerSource ?? analysis.source;
  const inside = analysis.commands.filter(
    (c) =>
      c.innerSource === cmd.innerSource &&
      c.id !== cmd.id &&
      c.span.start >= word.span.start &&
      c.span.end <= word.span.end,
  );
  const producer = inside[0];
  if (inside.length !== 1 || !producer || !producer.context.includes('command-substitution'))
    return undefined;
  if (!/^"?(?:\$\(|`)[ \t]*$/.test(source.slice(word.span.start, producer.span.start))) return undefined;
  if (!/^[ \t]*(?:\)|`)"?$/.test(source.slice(producer.span.end, word.span.end))) return undefined;
  const split: Split = quoted ? 'none' : 'fields';
  if (split === 'fields' && analysis.commands.some((c) => c.assignments.some((a) => a.name === 'IFS')))
    return undefined;
  const argv = producer.argv.map((w) => w.value);
  if (
    producer.name?.program === 'pwd' &&
    !producer.name.path &&
    producer.redirects.length === 0 &&
    producer.assignments.length === 0 &&
    argv.slice(1).every((a) => a === '-L' || a === '-P') &&
    producer.argv.every((w) => w.static)
  ) {
    const produced: ProducedPaths = {
      roots: [],
      separator: 'newline',
      bare: false,
      followsLinks: false,
      shallow: true,
    };
    return { producer, produced, split, pwd: true };
  }
  const produced = producerPaths(producer);
  if (!produced) return undefined;
  return { producer, produced, split };
}

/**
 * Reading every file below the root, as `grep -r ROOT` is decided (Read rules inside it, the folder boundary),
 * then what the names add: each link below it (or in it, for `ls`) leads the consumer to its target, decided as a
 * read; a name the hand-over would split, or one read as an option, makes the operands unknown.
 */
function rootParts(root: string, source: Source, cwd: string, ctx: DecisionContext): PartVerdict[] {
  const { produced, split } = source;
  const path = isAbsolute(root) ? resolve(root) : resolve(cwd, root);
  const listed = `${root} (the files ${commandLine(source.producer)} lists)`;
  const parts: PartVerdict[] = [
    decideFile({ access: 'read', path, shown: listed, tool: 'Bash', followsLinks: LINK_HOPS }, ctx),
  ];
  // Outside the permitted folders, or past a Read rule, the folder's read already asks: its names need no walk.
  if (parts[0]!.decision !== 'allow') return parts;
  const unsafe = UNSAFE[split];
  const subject = `the names ${commandLine(source.producer)} lists`;
  const ask = (reason: string): PartVerdict => ({ subject, decision: 'ask', by: 'dynamic', reason });
  if (unsafe?.test(root)) return [...parts, ask(`${root} would be split or changed on the way`)];
  let walk: ReturnType<typeof walkNames>;
  try {
    walk = walkNames(path, produced.shallow ? 2 : Number.POSITIVE_INFINITY, produced.followsLinks);
  } catch {
    walk = undefined;
  }
  if (walk === undefined)
    return [...parts, ask(`too many entries below ${root} to look through their names`)];
  const bad = unsafe ? walk.names.find((n) => unsafe.test(n)) : undefined;
  if (bad !== undefined)
    return [...parts, ask(`${JSON.stringify(bad)} below ${root} would not reach the command as one name`)];
  // A bare path begins with its first name: for ls every name it prints is one (an entry or an entry's entry).
  const dash = produced.bare
    ? walk.names.find((n, i) => n.startsWith('-') && walk.levels[i]! <= (produced.shallow ? 2 : 1))
    : undefined;
  if (dash !== undefined)
    return [...parts, ask(`${JSON.stringify(dash)} below ${root} would read as an option`)];
  let worst: PartVerdict | undefined;
  for (const target of walk.links) {
    const v = decideFile(
      {
        access: 'read',
        path: target,
        shown: `${target} (a link below ${root} leads there)`,
        tool: 'Bash',
        followsLinks: LINK_HOPS,
      },
      ctx,
    );
    if (v.decision !== 'allow' && (!worst || isStricter(v.decision, worst.decision))) worst = v;
  }
  // A key file the consumer would print is decided as its own read, as `cat key.pem` is (what it holds).
  for (const key of walk.keys) {
    const v = decideFile({ access: 'read', path: key, shown: key, tool: 'Bash' }, ctx);
    if (v.decision !== 'allow' && (!worst || isStricter(v.decision, worst.decision))) worst = v;
  }
  if (worst) parts.push(worst);
  return parts;
}

/**
 * Every name below the folder (to `depth` levels) and where every link among them leads; links to folders are
 * walked too when the producer follows them. Undefined past MAX_FOLDER_ENTRIES entries.
 */
function walkNames(
  folder: string,
  depth: number,
  follows: boolean,
): { names: string[]; levels: number[]; links: string[]; keys: string[] } | undefined {
  const names: string[] = [];
  const levels: number[] = [];
  const keys: string[] = [];
  const links = new Set<string>();
  const queue: { dir: string; level: number; hops: number }[] = [];
  try {
    if (statSync(folder).isDirectory()) queue.push({ dir: folder, level: 1, hops: 0 });
  } catch {
    return { names, levels, links: [], keys };
  }
  const seen = new Set<string>();
  for (let head = 0; head < queue.length; head++) {
    const { dir, level, hops } = queue[head]!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    if (names.length + entries.length > MAX_FOLDER_ENTRIES) return undefined;
    for (const e of entries) {
      names.push(e.name);
      levels.push(level);
      const path = join(dir, e.name);
      if (KEY_FILE.test(e.name) && e.isFile()) keys.push(path);
      if (e.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(path);
        } catch {
          continue;
        }
        links.add(target);
        if (follows && level < depth && hops < LINK_HOPS && !seen.has(target)) {
          seen.add(target);
          try {
            if (statSync(target).isDirectory()) queue.push({ dir: target, level: level + 1, hops: hops + 1 });
          } catch {}
        }
      } else if (e.isDirectory() && level < depth) queue.push({ dir: path, level: level + 1, hops });
    }
  }
  return { names, levels, links: [...links], keys };
}

/**
 * The command xargs runs, seen without the words xargs appends when xargs reads the tool call's own stdin: that
 * stdin is the harness's and carries nothing the agent wrote (Claude Code's Bash tool gives every command an open
 * pipe it never writes), so xargs appends no word (it waits, or at the end of input runs the command once with
 * none) and the command is decided as it is written. Only where nothing on the line may feed xargs: not in a
 * pipeline, a group, a loop, a function, a substitution or a shell's `-c` script (whose stdin the line around may
 * feed), no redirection of its stdin or of a compound command, and only its batching options.
 */
export function withoutHarnessInput(cmd: SimpleCommand, analysis: Analysis): SimpleCommand {
  if (cmd.nested?.via !== 'xargs' || !cmd.nested.extraArgs) return cmd;
  const xargs = analysis.commands.find((c) => c.id === cmd.nested!.carrier);
  if (
    xargs?.name?.program !== 'xargs' ||
    xargs.name.dynamic ||
    xargs.nested ||
    xargs.context.length > 0 ||
    xargs.innerSource !== undefined ||
    xargs.redirects.some((r) => r.fd === '0' || r.op.startsWith('<') || r.reads) ||
    analysis.compoundRedirects.length > 0
  )
    return cmd;
  const input = xargsStdinInput({ argv: xargs.argv, assignments: xargs.assignments, program: 'xargs' });
  if (!input) return cmd;
  // An `-I` string inside a word (a `sh -c` script, `../{}`) would be the input's text there.
  const marker = input.replace;
  if (marker !== undefined && cmd.argv.some((w) => w.value.includes(marker) && w.value !== marker))
    return cmd;
  const fx = effectsOf({ argv: cmd.argv, assignments: cmd.assignments, program: cmd.name!.program });
  return { ...cmd, nested: { ...cmd.nested, extraArgs: false }, effects: fx.effects, effectsKnown: fx.known };
}
