import { it } from 'vitest';
import { analyze, loadBash } from '../src/bash/analyze.js';

const lines = JSON.parse(process.env.LINES!) as string[];
it('x', async () => {
  await loadBash();
  for (const l of lines) {
    const a = analyze(l);
    console.log(
      'RESULT',
      JSON.stringify(l),
      a.opaque,
      JSON.stringify(a.problems.map((p) => p.message)),
      JSON.stringify(a.commands.map((c) => c.argv.map((w) => w.value + (w.static ? '' : '~')))),
    );
  }
});
