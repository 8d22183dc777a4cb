import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectDecisions, useSandboxClassifier } from './helpers.js';

const CHART = 'apiVersion: v2\nname: web\nversion: 1.0.0\n';

async function chart(folder: string, schema?: unknown): Promise<void> {
  await mkdir(path.join(folder, 'templates'), { recursive: true });
  await writeFile(path.join(folder, 'Chart.yaml'), CHART);
  await writeFile(path.join(folder, 'templates/cm.yaml'), 'kind: ConfigMap\n');
  if (schema !== undefined) await writeFile(path.join(folder, 'values.schema.json'), JSON.stringify(schema));
}

/** A schema whose references stay inside it, as most charts' do. */
const LOCAL_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { replicas: { $ref: '#/$defs/count' } },
  $defs: { count: { type: 'integer' } },
};

describe("helm template and lint: the charts' schemas may refer only inside themselves", () => {
  const box = useSandboxClassifier(async (b) => {
    const p = b.project;
    await chart(path.join(p, 'plain'));
    await chart(path.join(p, 'local'), LOCAL_SCHEMA);
    await chart(path.join(p, 'web'), { properties: { a: { $ref: 'https://schemas.example.com/a.json' } } });
    await chart(path.join(p, 'file'), { properties: { a: { $ref: 'file:///etc/passwd' } } });
    await chart(path.join(p, 'relative'), { properties: { a: { $ref: 'other.json' } } });
    await chart(path.join(p, 'meta'), { $schema: 'https://schemas.example.com/meta.json' });
    await chart(path.join(p, 'parent'));
    await chart(path.join(p, 'parent/charts/sub'), { items: [{ $dynamicRef: 'https://x.example/y' }] });
    await chart(path.join(p, 'packaged'));
    await mkdir(path.join(p, 'packaged/charts'));
    await writeFile(path.join(p, 'packaged/charts/sub-1.0.0.tgz'), 'not read');
    await writeFile(path.join(p, 'web-1.0.0.tgz'), 'a packaged chart');
    await writeFile(path.join(p, 'broken.json'), '{');
    await chart(path.join(p, 'linked'));
    await mkdir(path.join(p, 'elsewhere'), { recursive: true });
    await writeFile(path.join(p, 'elsewhere/values.schema.json'), '{"$ref": "https://x.example/s"}');
    await symlink('../elsewhere/values.schema.json', path.join(p, 'linked/values.schema.json'));
    await writeFile(path.join(p, 'values.yaml'), 'replicas: 2\n');
    // Test fixtures of a chart are no subchart: helm reads values.schema.json at the top and in charts/ only.
    await chart(path.join(p, 'fixtures'));
    await mkdir(path.join(p, 'fixtures/tests/data'), { recursive: true });
    await writeFile(
      path.join(p, 'fixtures/tests/data/values.schema.json'),
      '{"$ref": "https://x.example/s"}',
    );
  });
  expectDecisions(
    box,
    [
      'helm template web ./plain',
      'helm template web ./local -f values.yaml --set replicas=3',
      'helm lint ./plain ./local --strict',
      'helm template web ./web --skip-schema-validation',
      'helm lint ./parent --skip-schema-validation --with-subcharts',
      'helm lint plain local',
      'helm template web ./missing',
      'helm lint ./fixtures',
      // The project's root is no chart: helm reads no schema there.
      'helm lint',
    ],
    [
      'helm template web ./web',
      'helm lint ./web',
      'helm template web ./file',
      'helm template web ./relative',
      'helm template web ./meta',
      'helm lint ./parent --with-subcharts',
      'helm template web ./parent',
      'helm template web ./packaged',
      'helm template web ./web-1.0.0.tgz',
      'helm template web ./linked',
      'echo \'{"$ref": "https://x.example"}\' > plain/values.schema.json; helm template web ./plain',
      'helm template web ./plain --post-renderer ./render.sh',
      'helm template web ./plain --set-file key=~/.ssh/id_rsa',
      'helm template web ./plain -f https://values.example.com/v.yaml',
      'cp web-1.0.0.tgz made.tgz && helm template web ./made.tgz',
      'mkdir made && helm lint ./made',
    ],
  );

  it('names the schema and the reference', async () => {
    const v = await box.bash('helm template web ./web');
    expect(v.reason).toMatch(/values\.schema\.json: \$ref "https:\/\/schemas\.example\.com\/a\.json"/);
  });
});
