import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import type { Analysis } from '../../src/bash/types.js';
import { compare, loadExplainedEffects, WorldIndex } from './effects-oracle/check.js';
import { generateCommands, SAMPLES } from './effects-oracle/generate.js';
import { observe, parseStrace } from './effects-oracle/observe.js';
import {
  FULL_SEED,
  formatClasses,
  formatFailures,
  formatPrograms,
  missingPrograms,
  runEffectOracle,
} from './effects-oracle/run.js';
import { EffectSandbox, type ObservedRun } from './effects-oracle/sandbox.js';
import { buildWorld, type World } from './effects-oracle/world.js';
import { countingListener } from './oracle/listener.js';
import { findProgram, sandboxUnavailable } from './oracle/sandbox.js';

/**
 * The real programs are the oracle of the file effects: each command the classifier allows (under the shipped
 * rules, or under a team settings file) or calls read-only runs, traced, in a throwaway canary world (see
 * effects-oracle/sandbox.ts and world.ts), and what it did (secrets it printed or copied, files it changed,
 * programs it ran, connections it tried) must be what the analysis declares. `npm test` runs a seeded sample
 * (EFFECTS_ORACLE_SEED to repeat one) of the lines `npm run oracle` runs in full (and reports per program), so the
 * sample finds nothing the full run does not.
 */

const unavailable =
  sandboxUnavailable() ??
  (findProgram('strace') ? undefined : 'strace not installed (scripts/setup-sandbox.sh)');
const title = (what: string) => (unavailable ? `${what} (skipped: ${unavailable})` : what);
const seed = process.env.EFFECTS_ORACLE_SEED
  ? Number(process.env.EFFECTS_ORACLE_SEED)
  : Math.floor(Math.random() * 0x7fffffff);
const missing = missingPrograms();

/**
 * Sized for under a minute of one worker while the other test files run on the second core (two cores): the
 * sample only has to find a regression somewhere in the programs' modules; `npm run oracle` (CI, after `npm test`)
 * classifies and runs every line of the same sets, so no line is checked only here.
 */
const SAMPLE = { generated: 50_000, generatedSample: 1200, nl2bash: 300, runLimit: 150 };

const run = (over: Partial<ObservedRun>): ObservedRun => ({
  ms: 0,
  timedOut: false,
  aborted: false,
  status: 0,
  output: [],
  changes: [],
  strace: '',
  markers: '',
  ...over,
});

describe('strace records', () => {
  it('reads programs that ran (not the shell itself, not failed execs, resumed ones too) and inet connects', () => {
    const trace = [
      '10    execve("/run/sys/bash", ["/run/sys/bash", "-c", "x"], 0x1 /* 9 vars */) = 0',
      '11    execve("/usr/local/bin/git", ["git", "log"], 0x2 /* 9 vars */) = -1 ENOENT (No such file or directory)',
      '11    execve("/usr/bin/git", ["git", "log"], 0x2 /* 9 vars */) = 0',
      '12    execve("/usr/bin/le\\"ss", ["less"], 0x3 /* 9 vars */ <unfinished ...>',
      '12    <... execve resumed>)              = 0',
      '13    connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT',
      '13    connect(3, {sa_family=AF_INET, sin_port=htons(6443), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 ENETUNREACH',
    ].join('\n');
    expect(parseStrace(trace)).toEqual({
      programs: [
        { path: '/usr/bin/git', argv: ['git', 'log'] },
        { path: '/usr/bin/le"ss', argv: ['less'] },
      ],
      network: ['AF_INET 127.0.0.1:6443'],
    });
  });
});

describe('declared effects cover what they name', () => {
  let world: World;
  let index: WorldIndex;
  let root: string;
  beforeAll(async () => {
    await loadBash();
    root = mkdtempSync(join(tmpdir(), 'automode-effects-world-'));
    world = buildWorld(join(root, 'world'), join(root, 'markers'));
    index = new WorldIndex(world);
    return () => rmSync(root, { recursive: true, force: true });
  });
  const canaryOf = (tag: string) => [...world.canaries.keys()].find((c) => c.startsWith(`CANARY_${tag}_`))!;
  const missed = (line: string, observed: Partial<ObservedRun>, edit?: (a: Analysis) => void) => {
    const analysis = analyze(line);
    edit?.(analysis);
    return compare(analysis, observe(run(observed), world), index, []).map((d) => d.observed);
  };

  it('a secret read is covered by the file, a link to it or to its folder, a glob, never a link inside a folder', () => {
    const ssh = { output: [canaryOf('SSH')] };
    expect(missed('cat ssh-link/id_rsa', ssh)).toEqual([]);
    expect(missed('cat ../home/.ssh/../.ssh/id_rsa', ssh)).toEqual([]);
    expect(missed('cat ssh-link', ssh)).toEqual([]);
    // A folder read does not cover what a link inside it leads to (`cp -rL docs x`).
    expect(missed('cat docs', ssh)).toHaveLength(1);
    expect(missed('cat ~/.ssh/i*', ssh)).toEqual([]);
    expect(missed('cat README.md', ssh)).toEqual([
      expect.stringMatching(/^read ~\/\.ssh\/id_rsa \(CANARY_SSH in/),
    ]);
    expect(missed('cat ~/.ssh/config', { output: [canaryOf('SSHDIR')] })).toEqual([]);
    expect(missed('cat ~/notes', { output: [canaryOf('SSHDIR')] })).toEqual([
      'listed ~/.ssh (CANARY_SSHDIR in stdout/stderr)',
    ]);
  });

  it('a folder read leaves out hidden entries when it skips them, ignored ones when it respects .gitignore', () => {
    const env = { output: [canaryOf('ENV')] };
    expect(missed('cat .', env)).toEqual([]);
    expect(missed('cat .', env, (a) => (a.commands[0]!.effects[0]!.skipsHidden = true))).toHaveLength(1);
    expect(index.ignored.has(`${world.project}/app.log`)).toBe(true);
    expect(index.ignored.has(`${world.project}/README.md`)).toBe(false);
  });

  it('a change is covered by a declared write of the path or a folder above it; programs by commands', () => {
    const created = (path: string) => ({
      changes: [{ path: `${world.project}/${path}`, kind: 'created' as const, canaries: [] }],
    });
    expect(missed('echo > out.txt', created('out.txt'))).toEqual([]);
    expect(missed('mkdir -p a', created('a/b'))).toEqual([]);
    expect(missed('cat out.txt', created('out.txt'))).toEqual(['created ./out.txt']);
    const copy = {
      changes: [{ path: `${world.project}/k`, kind: 'created' as const, canaries: [canaryOf('AWS')] }],
    };
    expect(missed('cp aws-link k', copy)).toEqual([]);
    expect(missed('touch k', copy)).toEqual(['read ~/.aws/credentials (CANARY_AWS in ./k)']);
    const ran = {
      strace: '1 execve("/bin/bash", ["bash"], 0) = 0\n2 execve("/usr/bin/git", ["git"], 0) = 0\n',
    };
    expect(missed('git status', ran)).toEqual([]);
    expect(missed('echo', ran)).toEqual(['ran /usr/bin/git']);
    expect(missed('bash -c "$x"', ran)).toEqual(['ran /usr/bin/git']);
  });
});

describe('generated commands', () => {
  it('cover every subcommand and the module cases, deterministically for a seed', () => {
    const a = generateCommands(60_000, 1);
    expect(a).toEqual(generateCommands(60_000, 1));
    expect(a).toHaveLength(60_000);
    const lines = new Set(a.map((g) => g.line));
    for (const l of ['git stash list', 'docker cp', 'kubectl', 'sed', 'rg']) expect(lines.has(l)).toBe(true);
    expect(a.some((g) => g.line.startsWith('rg --pre '))).toBe(true);
    expect(SAMPLES.length).toBeGreaterThan(20);
  });
});

describe.skipIf(unavailable !== undefined)('the canary world', () => {
  let sandbox: EffectSandbox;
  let index: WorldIndex;
  beforeAll(async () => {
    await loadBash();
    sandbox = new EffectSandbox();
    index = new WorldIndex(sandbox.world);
    return () => sandbox.dispose();
  });
  const runLines = async (lines: string[]) => {
    const out: ObservedRun[] = [];
    await sandbox.run(lines, { workers: 1, lineTimeoutMs: 4000 }, (i, r) => {
      out[i] = r;
    });
    return out;
  };

  it(title('isolates: no host writes, no network, an unprivileged uid, a watchdog'), async () => {
    const canary = `/var/tmp/automode-effects-canary-${process.pid}`;
    writeFileSync(canary, 'intact\n', { mode: 0o666 });
    const listener = await countingListener();
    const port = listener.port;
    try {
      const runs = await runLines([
        `echo pwned > ${canary}; rm -f ${canary}; echo pwned > /etc/automode-effects-probe`,
        `echo hi > /dev/tcp/127.0.0.1/${port}`,
        'test "$(id -u)" = 65534 && test "$(id -g)" = 65534 && touch uid-ok',
        'sleep 100 & while :; do :; done',
        'echo after > after.txt',
        'cat /run/world/project/.env /run/b*/config.json; ls -R /run/world /run/b*',
      ]);
      expect(readFileSync(canary, 'utf8')).toBe('intact\n');
      expect(existsSync('/etc/automode-effects-probe')).toBe(false);
      expect(listener.connections()).toBe(0);
      expect(parseStrace(runs[1]!.strace).network).toEqual([`AF_INET 127.0.0.1:${port}`]);
      expect(runs[2]!.changes.map((c) => c.path)).toEqual([`${sandbox.world.project}/uid-ok`]);
      expect(runs[3]!.timedOut).toBe(true);
      expect(runs[4]!.changes.map((c) => c.path)).toEqual([`${sandbox.world.project}/after.txt`]);
      // The world's template and the batch's list of canaries are out of reach.
      expect(runs[5]!.output).toEqual([]);
    } finally {
      listener.close();
      rmSync(canary, { force: true });
    }
  }, 60_000);

  it(title(
    'observes secrets read, files written, programs run; and finds what the analysis left out',
  ), async () => {
    const lines = [
      'cat .env',
      'cp ssh-link/id_rsa k; chmod 600 README.md',
      'automode-marker-interp x',
      'ls ~/.ssh',
      'cat README.md > copy.md',
    ];
    const runs = await runLines(lines);
    const explained = loadExplainedEffects();
    const found = runs.map((r, i) =>
      compare(analyze(lines[i]!), observe(r, sandbox.world), index, explained),
    );
    expect(found[0]).toEqual([]);
    expect(observe(runs[0]!, sandbox.world).reads.map((r) => index.show(r.secret.path))).toEqual(['./.env']);
    expect(found[1]).toEqual([]);
    expect(observe(runs[1]!, sandbox.world).reads.map((r) => r.seen)).toEqual([`${sandbox.world.project}/k`]);
    expect(found[2]).toEqual([]);
    expect(observe(runs[2]!, sandbox.world).programs.map((p) => p.path)).toEqual([
      '/run/markers/automode-marker-interp',
    ]);
    expect(found[3]).toEqual([]);
    expect(found[4]).toEqual([]);
    // Analyses that leave something out are caught: a read, a write, a program.
    const a = (line: string) => analyze(line);
    expect(compare(a('true'), observe(runs[0]!, sandbox.world), index, explained).map((d) => d.kind)).toEqual(
      ['read', 'program'],
    );
    expect(
      compare(a('cp ssh-link/id_rsa k'), observe(runs[1]!, sandbox.world), index, explained).map(
        (d) => d.observed,
      ),
    ).toEqual(['metadata ./README.md', 'ran /usr/bin/chmod']);
    expect(compare(a('true'), observe(runs[2]!, sandbox.world), index, explained).map((d) => d.kind)).toEqual(
      ['program'],
    );
    expect(
      compare(a('ls ~/notes'), observe(runs[3]!, sandbox.world), index, explained).map((d) => d.kind),
    ).toEqual(['read']);
  }, 60_000);
});

describe('the effect oracle', () => {
  it.skip.each(missing.length ? [missing.join(' ')] : [])(
    'spec programs not installed here, whose lines fail to start and so check nothing: %s',
    () => {},
  );

  it.skipIf(unavailable !== undefined)(
    title(
      `allowed commands do only what the analysis declares (seed ${seed}: ${SAMPLE.generatedSample} of ${SAMPLE.generated} generated lines, ${SAMPLE.nl2bash} NL2Bash lines, the samples; ${SAMPLE.runLimit} run)`,
    ),
    async () => {
      console.log(`effect oracle seed: ${seed} (EFFECTS_ORACLE_SEED=${seed} repeats this sample)`);
      const result = await runEffectOracle({ seed: FULL_SEED, sampleSeed: seed, ...SAMPLE });
      console.log(formatPrograms(result));
      const { failures, programs, ...figures } = result;
      console.log(`effect oracle: ${JSON.stringify({ ...figures, failures: failures.length })}`);
      expect(result.run).toBeGreaterThan(SAMPLE.runLimit / 2);
      // The programs are seen running (what they read and write is checked by the canary world's tests).
      expect(result.observed.programs).toBeGreaterThan(SAMPLE.runLimit / 4);
      if (failures.length > 0) {
        throw new Error(
          `seed ${seed}: ${failures.length} allowed commands did what the analysis does not declare.\nBy program and class:\n${formatClasses(failures, 2)}\n\n${formatFailures(failures)}`,
        );
      }
    },
    600_000,
  );
});
