import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createColors } from 'picocolors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { critiqueCommandWith } from '../../src/cli/critique.js';
import type { Io } from '../../src/cli/output.js';
import { CODES, FINDING_CODES } from '../../src/critique/codes.js';
import { modelReviewer, REVIEW_TOOL } from '../../src/critique/review.js';
import { type MessagesServer, reply, startMessagesServer } from '../support/messages-server.js';
import { type Box, fixturePath, makeBox, removeBox } from './helpers.js';

let box: Box;

beforeAll(async () => {
  box = await makeBox();
  await mkdir(path.join(box.home, '.claude'), { recursive: true });
  await mkdir(path.join(box.cwd, '.claude'), { recursive: true });
});
afterAll(async () => {
  await removeBox(box);
});

/** Runs `automode critique ...` in process, as main() does, with an environment of its own. */
async function run(argv: string[], env: NodeJS.ProcessEnv = {}, colors = false) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    colors: createColors(colors),
    errColors: createColors(colors),
  };
  const command = critiqueCommandWith({ env: { HOME: box.home, ...env }, reviewer: modelReviewer });
  let code = 0;
  let failed = false;
  await yargs(['critique', '--cwd', box.cwd, ...argv])
    .strict()
    .exitProcess(false)
    .fail((msg) => {
      failed = true;
      err.push(msg ?? 'usage error');
    })
    .command(command.command, command.describe, command.builder, async (args) => {
      code = await command.run(args as Record<string, unknown>, io);
    })
    .parseAsync()
    .catch(() => {
      failed = true;
    });
  return { code: failed ? 2 : code, out: out.join('\n'), err: err.join('\n') };
}

describe('automode critique: output formats', () => {
  it('text: grouped by file, with witness, related rule and fix; no colour off a terminal', async () => {
    const r = await run(['--no-llm', fixturePath('dead-rule.json')]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(fixturePath('dead-rule.json'));
    expect(r.out).toMatch(/4:7\s+warning\s+allow rule Bash\(curl https:\/\/example\.com\/api\) never fires/);
    expect(r.out).toContain('witness "curl https://example.com/api"');
    expect(r.out).toMatch(/related .*dead-rule\.json:7:7/);
    expect(r.out).toContain('fix     remove the rule');
    expect(r.out).toMatch(/0 errors, 1 warning, \d+ notes? in 1 file/);
    expect(r.out).toContain('model review skipped: --no-llm');
    expect(r.out).not.toContain('\u001b[');
  });

  it('text: colour when the stream is a terminal', async () => {
    const r = await run(['--no-llm', fixturePath('dead-rule.json')], {}, true);
    expect(r.out).toContain('\u001b[');
  });

  it('--json prints only the report on stdout', async () => {
    const r = await run(['--no-llm', '--json', fixturePath('dangerous-allow.json')]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out);
    expect(report.summary.errors).toBeGreaterThan(0);
    expect(report.findings.map((f: { code: string }) => f.code)).toContain('dangerous-allow');
    expect(report.files[0]).toMatchObject({ path: fixturePath('dangerous-allow.json'), kind: 'settings' });
    expect(typeof report.timings.staticMs).toBe('number');
  });

  it('sarif: SARIF 2.1.0 with every code as a rule, results with ruleId, level, region and related locations', async () => {
    const r = await run(['--no-llm', '--format', 'sarif', fixturePath('dead-rule.json')]);
    const sarif = JSON.parse(r.out);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.$schema).toMatch(/sarif-2\.1\.0/);
    const run0 = sarif.runs[0];
    expect(run0.tool.driver.name).toBe('automode');
    expect(run0.tool.driver.rules.map((x: { id: string }) => x.id)).toEqual(FINDING_CODES);
    for (const rule of run0.tool.driver.rules) {
      expect(rule.help.text).toBe(CODES[rule.id as keyof typeof CODES].help);
      expect(rule.shortDescription.text.length).toBeGreaterThan(0);
      expect(['error', 'warning', 'note']).toContain(rule.defaultConfiguration.level);
    }
    const dead = run0.results.find((x: { ruleId: string }) => x.ruleId === 'dead-rule');
    expect(dead.level).toBe('warning');
    expect(dead.ruleIndex).toBe(FINDING_CODES.indexOf('dead-rule'));
    expect(dead.message.text).toContain('Witness: "curl https://example.com/api"');
    const location = dead.locations[0].physicalLocation;
    expect(location.artifactLocation.uri).toMatch(/^file:\/\/.*dead-rule\.json$/);
    expect(location.region).toEqual({ startLine: 4, startColumn: 7 });
    expect(dead.relatedLocations[0].physicalLocation.region).toEqual({ startLine: 7, startColumn: 7 });
    expect(dead.relatedLocations[0].message.text).toContain('Bash(curl *)');
  });

  it('sarif: files inside the working folder get relative URIs against SRCROOT', async () => {
    const file = path.join(box.cwd, 'team.json');
    await writeFile(file, await readFile(fixturePath('dead-rule.json')));
    const r = await run(['--no-llm', '--format', 'sarif', file]);
    const sarif = JSON.parse(r.out);
    const dead = sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'dead-rule');
    expect(dead.locations[0].physicalLocation.artifactLocation).toEqual({
      uri: 'team.json',
      uriBaseId: 'SRCROOT',
    });
    expect(sarif.runs[0].originalUriBaseIds.SRCROOT.uri).toMatch(/^file:\/\/.*\/proj\/$/);
  });

  it('github: one workflow command per finding, escaped, with the summary on stderr', async () => {
    const r = await run(['--no-llm', '--format', 'github', fixturePath('dangerous-allow.json')]);
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    const line = lines.find(
      (l) => l.startsWith('::error ') && l.includes('title=automode dangerous-allow%3A'),
    );
    expect(line).toMatch(
      /^::error file=[^,]*dangerous-allow\.json,line=4,col=7,title=automode dangerous-allow%3A /,
    );
    expect(line).toContain('%0Awitness: ');
    expect(line).not.toContain('\n');
    expect(lines.every((l) => /^::(error|warning|notice) /.test(l))).toBe(true);
    expect(r.err).toMatch(/^everyday commands: \d+ of \d+ still ask/m);
    expect(r.err).toMatch(/\d+ errors?/);
  });
});

describe('automode critique: exit codes', () => {
  it('0 without error findings, 1 with them', async () => {
    expect((await run(['--no-llm', fixturePath('everyday-asked.json')])).code).toBe(0);
    expect((await run(['--no-llm', fixturePath('rule-syntax.json')])).code).toBe(1);
  });

  it('--max-warnings N: 1 when there are more warnings than N', async () => {
    expect((await run(['--no-llm', '--max-warnings', '1', fixturePath('dead-rule.json')])).code).toBe(0);
    expect((await run(['--no-llm', '--max-warnings', '0', fixturePath('dead-rule.json')])).code).toBe(1);
  });

  it('2 on a file that cannot be parsed or read, with the finding still printed', async () => {
    const bad = await run(['--no-llm', '--json', fixturePath('invalid-json.json')]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.out).findings[0]).toMatchObject({ code: 'invalid-json', location: { line: 3 } });
    expect((await run(['--no-llm', fixturePath('no-such-file.json')])).code).toBe(2);
  });

  it('says what a code runner rule admits, and offers the exact commands', async () => {
    const file = path.join(box.root, 'runner.json');
    await writeFile(file, JSON.stringify({ permissions: { allow: ['Bash(npm run *)', 'Bash(git *)'] } }));
    const report = JSON.parse((await run(['--no-llm', '--json', file])).out);
    const broad = report.findings.filter((f: { code: string }) => f.code === 'broad-allow');
    const npm = broad.find((f: { message: string }) => f.message.includes('Bash(npm run *)'));
    expect(npm.message).toContain(
      'in default and acceptEdits modes it allows any code the agent writes there',
    );
    expect(npm.fix).toContain('Bash(npm run build)');
    const git = broad.find((f: { message: string }) => f.message.includes('Bash(git *)'));
    expect(git?.message ?? '').not.toContain('any code the agent writes there');
  });

  it('2 on usage errors', async () => {
    expect((await run(['--no-llm', '--max-warnings', '-1', fixturePath('dead-rule.json')])).code).toBe(2);
    expect((await run(['--no-llm', '--format', 'xml', fixturePath('dead-rule.json')])).code).toBe(2);
  });
});

describe('automode critique: inputs', () => {
  it('without files: the effective configuration of the user and the folder', async () => {
    await writeFile(
      path.join(box.home, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(curl https://example.com/api)'] } }, null, 2),
    );
    await writeFile(
      path.join(box.cwd, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(curl *)'] }, autoMode: { allow: ['x'] } }, null, 2),
    );
    const r = await run(['--no-llm', '--json'], {
      AUTOMODE_MANAGED_SETTINGS: path.join(box.root, 'none.json'),
    });
    const report = JSON.parse(r.out);
    const sources = report.files
      .filter((f: { exists: boolean }) => f.exists)
      .map((f: { source: string }) => f.source);
    expect(sources).toEqual(expect.arrayContaining(['userSettings', 'projectSettings']));
    const dead = report.findings.find((f: { code: string }) => f.code === 'dead-rule');
    expect(dead.location).toMatchObject({
      file: path.join(box.home, '.claude', 'settings.json'),
      line: 4,
      column: 7,
    });
    expect(dead.related[0].file).toBe(path.join(box.cwd, '.claude', 'settings.json'));
    const ignored = report.findings.find((f: { code: string }) => f.code === 'automode-ignored');
    expect(ignored.location.file).toBe(path.join(box.cwd, '.claude', 'settings.json'));
  });

  it('--rules and --deny add rule files and command-line rules', async () => {
    const r = await run([
      '--no-llm',
      '--json',
      fixturePath('dead-rule.json'),
      '--rules',
      fixturePath('unanchored-pattern.yaml'),
      '--deny',
      'Bash(curl https://example.com/api)',
    ]);
    const codes = JSON.parse(r.out).findings.map((f: { code: string }) => f.code);
    expect(codes).toContain('unanchored-pattern');
    expect(codes).toContain('dead-rule');
  });
});

describe('automode critique: the model review from the environment', () => {
  let server: MessagesServer;
  beforeAll(async () => {
    server = await startMessagesServer([]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('asks the model at ANTHROPIC_BASE_URL and reports its findings', async () => {
    server.script(
      reply.toolUse({
        name: REVIEW_TOOL,
        input: {
          findings: [
            {
              rule: 'Databases',
              severity: 'warning',
              category: 'actionability',
              message: '"Be careful" does not say what to block.',
              suggestion: 'Databases: Do not drop, truncate or migrate production databases.',
            },
          ],
        },
      }),
    );
    const r = await run(['--json', fixturePath('review-actionability.json')], {
      ANTHROPIC_BASE_URL: server.url,
      AUTOMODE_MODEL: 'claude-test-model',
    });
    const report = JSON.parse(r.out);
    expect(report.review).toMatchObject({ status: 'done', model: 'claude-test-model' });
    const found = report.findings.find((f: { code: string }) => f.code === 'review-actionability');
    expect(found.location).toMatchObject({ line: 11, column: 7 });
    expect(server.messageRequests()).toHaveLength(1);
  });

  it('--no-llm skips it; without a key or base URL it is skipped and says why', async () => {
    const before = server.messageRequests().length;
    const off = JSON.parse(
      (
        await run(['--json', '--no-llm', fixturePath('review-clarity.json')], {
          ANTHROPIC_BASE_URL: server.url,
        })
      ).out,
    );
    expect(off.review).toEqual({ status: 'skipped', reason: '--no-llm' });
    const none = JSON.parse((await run(['--json', fixturePath('review-clarity.json')])).out);
    expect(none.review.status).toBe('skipped');
    expect(none.review.reason).toMatch(/ANTHROPIC_API_KEY/);
    expect(server.messageRequests().length).toBe(before);
  });
});

describe('automode critique through bin/automode.js', () => {
  const bin = fileURLToPath(new URL('../../bin/automode.js', import.meta.url));

  it('pairs rules with the shipped asks in a fresh process, before any command was parsed', async () => {
    const file = path.join(box.cwd, 'process-substitution.json');
    await writeFile(file, JSON.stringify({ permissions: { allow: ['Bash(diff <(sort a) <(sort b))'] } }));
    const r = spawnSync(process.execPath, [bin, 'critique', '--no-llm', '--json', file], {
      cwd: box.cwd,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: box.home },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const codes = JSON.parse(r.stdout).findings.map((f: { code: string }) => f.code);
    expect(codes).toContain('shell-operator');
  });
  it('is listed in the help and runs as a CLI command', () => {
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help.stdout).toContain('automode critique');
    const r = spawnSync(
      process.execPath,
      [bin, 'critique', '--no-llm', '--json', fixturePath('dead-rule.json')],
      {
        cwd: box.cwd,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: box.home },
      },
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).findings.some((f: { code: string }) => f.code === 'dead-rule')).toBe(true);
  });
});
