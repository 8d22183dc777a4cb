import { readFileSync } from 'node:fs';
import { ContentBlockSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import {
  installCommand,
  loadOptional,
  MissingOptionalPackageError,
  OPTIONAL_PACKAGES,
  type OptionalPackage,
} from '../../src/pipeline/optional.js';
import { McpOutputSchema } from '../../src/pipeline/tools/output-schemas.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

/** Node's error for a package that is not installed. */
function notFound(name: string, from = '/app/node_modules/automode/dist/pipeline/tools/mcp.js'): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from ${from}`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

describe('optional packages', () => {
  test('are optional peers, pinned in package.json at the versions automode names, and dev dependencies', () => {
    for (const [name, version] of Object.entries(OPTIONAL_PACKAGES)) {
      expect(pkg.peerDependencies[name], name).toBe(version);
      expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(pkg.devDependencies[name], name).toBe(version);
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.optionalDependencies?.[name], name).toBeUndefined();
    }
  });

  test('a package that loads is returned as it is', async () => {
    const sdk = await loadOptional(
      '@modelcontextprotocol/sdk',
      'connecting to MCP servers',
      () => import('@modelcontextprotocol/sdk/client/index.js'),
    );
    expect(typeof sdk.Client).toBe('function');
  });

  test('a missing package says which feature needs it and how to install it, at its pinned version', async () => {
    const e = await loadOptional('@anthropic-ai/sandbox-runtime', 'the sandbox', () =>
      Promise.reject(notFound('@anthropic-ai/sandbox-runtime')),
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MissingOptionalPackageError);
    expect((e as Error).message).toBe(
      'automode: the sandbox needs @anthropic-ai/sandbox-runtime@0.0.83; install it: npm install @anthropic-ai/sandbox-runtime@0.0.83',
    );
    expect((e as MissingOptionalPackageError).packageName).toBe('@anthropic-ai/sandbox-runtime');
    expect((e as Error).cause).toBeInstanceOf(Error);
  });

  test('a subpath of a missing package, or the error wrapped by a loader, is the package missing too', async () => {
    const wrapped = new Error('the loader failed', { cause: notFound('@modelcontextprotocol/sdk') });
    for (const failure of [notFound('@modelcontextprotocol/sdk/client/index.js'), wrapped]) {
      const e = await loadOptional('@modelcontextprotocol/sdk', 'connecting to MCP servers', () =>
        Promise.reject(failure),
      ).catch((x: unknown) => x);
      expect((e as Error).message).toBe(
        `automode: connecting to MCP servers needs @modelcontextprotocol/sdk@1.32.2; install it: ${installCommand('@modelcontextprotocol/sdk')}`,
      );
    }
  });

  test('a name that does not exist fails as Node says, and is not taken for an optional package', async () => {
    const missing = 'automode-no-such-package-for-tests';
    const real = await import(/* @vite-ignore */ missing).catch((x: unknown) => x);
    expect(real).toBeInstanceOf(Error);
    for (const name of Object.keys(OPTIONAL_PACKAGES) as OptionalPackage[]) {
      // Another package missing (a dependency of the optional one, say) is not this package missing.
      const e = await loadOptional(name, 'a feature', () => import(/* @vite-ignore */ missing)).catch(
        (x: unknown) => x,
      );
      expect(e).not.toBeInstanceOf(MissingOptionalPackageError);
      expect((e as Error).message).toBe((real as Error).message);
    }
  });

  test('any other failure is thrown unchanged', async () => {
    const boom = new Error('boom');
    await expect(loadOptional('@modelcontextprotocol/sdk', 'MCP', () => Promise.reject(boom))).rejects.toBe(
      boom,
    );
  });
});

describe('McpOutputSchema, written out so that the pipeline loads without the MCP SDK', () => {
  const blocks: unknown[] = [
    { type: 'text', text: 'hello' },
    { type: 'text', text: 'hello', annotations: { audience: ['user'], priority: 0.5 }, _meta: { a: 1 } },
    { type: 'text', text: 'x', annotations: { lastModified: '2025-01-01T00:00:00Z' } },
    { type: 'text', text: 'x', annotations: { lastModified: 'yesterday' } },
    { type: 'text', text: 'x', annotations: { priority: 2 } },
    { type: 'text', text: 'x', extra: 'dropped' },
    { type: 'text' },
    { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
    { type: 'image', data: '!!not base64!!', mimeType: 'image/png' },
    { type: 'audio', data: 'aGVsbG8=', mimeType: 'audio/wav' },
    { type: 'audio', data: 'aGVsbG8=' },
    { type: 'resource_link', uri: 'file:///a', name: 'a' },
    {
      type: 'resource_link',
      uri: 'file:///a',
      name: 'a',
      title: 'A',
      size: 3,
      icons: [{ src: 'i.png', theme: 'dark', sizes: ['16x16'] }],
      _meta: { k: 'v' },
    },
    { type: 'resource_link', uri: 'file:///a' },
    { type: 'resource', resource: { uri: 'file:///a', text: 'body', mimeType: 'text/plain' } },
    { type: 'resource', resource: { uri: 'file:///a', blob: 'aGVsbG8=' } },
    { type: 'resource', resource: { uri: 'file:///a' } },
    { type: 'video', data: 'aGVsbG8=' },
    'text',
  ];

  test('accepts, rejects and keeps what the SDK schema of the pinned version does', () => {
    for (const block of blocks) {
      const ours = McpOutputSchema.safeParse([block]);
      const sdk = ContentBlockSchema.safeParse(block);
      expect(ours.success, JSON.stringify(block)).toBe(sdk.success);
      if (ours.success && sdk.success) expect(ours.data[0], JSON.stringify(block)).toEqual(sdk.data);
    }
  });
});
