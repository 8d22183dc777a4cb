import { it } from 'vitest';
import { analyze } from '../src/bash/analyze.js';
import { loadBash } from '../src/bash/parser.js';
it('x', async () => {
  await loadBash();
  for (const src of ['find . -execdir git status \\;', 'env -C ~/.ssh cat id_rsa', 'env --chdir=/x -i cat a', 'sudo -D /tmp cat a', 'xargs -a f git log', 'cd a | git log', 'git -C a status']) {
    const a = analyze(src);
    console.log(src, a.opaque, JSON.stringify(a.commands.map((c) => [c.id, c.argv.map((w) => w.value), c.context, c.nested, c.effectsKnown, c.executes.map(e=>e.kind+':'+e.via)])));
  }
});
