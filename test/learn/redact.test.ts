import { describe, expect, it } from 'vitest';
import { holdsSecret, redact } from '../../src/testing/index.js';

describe('redact', () => {
  it.each([
    ['export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwx12345', 'export GITHUB_TOKEN=<redacted>'],
    [
      'curl -H "Authorization: Bearer abc123def456" https://x',
      'curl -H "Authorization: Bearer <redacted>" https://x',
    ],
    ['API_KEY=Zx81kLmN0pQ2rS3tU4vW5xY6zA7bC8dE9 node x.js', 'API_KEY=<redacted> node x.js'],
    ['mysql --password hunter22 -u root', 'mysql --password <redacted> -u root'],
    ['psql postgres://app:s3cret@db/app', 'psql postgres://app:<redacted>@db/app'],
    ['curl -u ci:pa55word https://x', 'curl -u ci:<redacted> https://x'],
    ['npm publish --otp 123456', 'npm publish --otp <redacted>'],
    ['aws s3 ls --key AKIAIOSFODNN7EXAMPLE', 'aws s3 ls --key <redacted>'],
    ['echo sk-ant-api03-abcdefghijklmnopqrstuv', 'echo <redacted>'],
  ])('%s', (text, shown) => {
    expect(redact(text)).toBe(shown);
    expect(holdsSecret(text)).toBe(true);
  });

  it.each([
    'gh auth status',
    'gh secret list',
    'git log --author=dana',
    'git show 3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c',
    'cat /tmp/amt-ttrvQb/learn-gVUyn1/src/verylongfolder/NameOfAFile42.ts',
    'npm run build',
  ])('leaves %s alone', (text) => {
    expect(redact(text)).toBe(text);
  });
});
