import { test } from 'vitest';
import { analyzeBash } from '../src/bash/analyze.js';
const cases = [
  `sudo -u root timeout 5 nice rm -rf /tmp/x`,
  `find . -name '*.py' -exec rm {} \\;`,
  `git -c core.pager='sh -c "rm -rf /"' log`,
  `bash -c 'echo hi; rm x'`,
  `env -i PAGER=evil git log`,
  `xargs -I{} rm {}`,
  `sed -i 's/a/b/' "$f"`,
  `cp *.txt dest/`,
  `rm -- "$x"`,
  `git commit -m "$(cat <<'EOF'\nhello\nEOF\n)"`,
  `timeout 5 "$cmd" arg`,
  `sudo "$cmd"`,
  `export PATH="$PATH:/x"`,
  `PAGER=cat git log`,
  `awk -F: '{print $1 " -> " $2}' /etc/passwd`,
];
test('smoke', async () => {
  for (const c of cases) {
    const a = await analyzeBash(c);
    console.log(c, '\n  opaque:', a.opaque, a.problems.map((p) => p.message));
    for (const cmd of a.commands) console.log('   ', cmd.argv.map((w) => w.value).join(' '), cmd.nested?.via ?? '', JSON.stringify(cmd.executes.map((e) => `${e.kind}:${e.via}:${e.code ?? ''}`)), cmd.effectsKnown, cmd.effects.map((e) => `${e.access}:${e.path.value}`).join(','));
  }
});
