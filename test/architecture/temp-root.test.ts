import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the test run', () => {
  it('makes its temp folders in one folder of the run, removed when it ends (test/support/temp-root.ts)', () => {
    expect(path.basename(tmpdir())).toMatch(/^amt-[A-Za-z0-9]{6}$/);
  });
});
