import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exchange, parseResponse, requestBytes } from '../../src/service/wire.js';

const dir = mkdtempSync(join(tmpdir(), 'automode-wire-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function listen(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
}

/** A node:http server that echoes what it received: method, path, headers and body, and a header of its own. */
function echoServer() {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('x-automode-proof', 'p');
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
  });
}

describe('the service client', () => {
  for (const transport of ['socket', 'tcp'] as const) {
    it(`talks to node:http over ${transport === 'socket' ? 'a Unix socket' : 'loopback TCP'}, UTF-8 and all`, async () => {
      const server = echoServer();
      const socket = join(dir, `echo-${transport}.sock`);
      await (transport === 'socket'
        ? new Promise<void>((r) => server.listen(socket, () => r()))
        : listen(server));
      try {
        const address =
          transport === 'socket'
            ? { socket }
            : { host: '127.0.0.1', port: (server.address() as net.AddressInfo).port };
        const body = JSON.stringify({ command: 'echo "ünïcødé ✓" | grep x' });
        const res = await exchange(
          address,
          { method: 'POST', path: '/hook', headers: { authorization: 'Bearer t' }, body },
          5_000,
        );
        expect(res.status).toBe(200);
        expect(res.headers['x-automode-proof']).toBe('p');
        const seen = JSON.parse(res.body);
        expect(seen).toMatchObject({ method: 'POST', url: '/hook', body });
        expect(seen.headers.authorization).toBe('Bearer t');
        expect(Number(seen.headers['content-length'])).toBe(Buffer.byteLength(body));
      } finally {
        await new Promise((r) => server.close(r));
      }
    });
  }

  it('refuses a header value that would start another header', () => {
    expect(() =>
      requestBytes({ method: 'GET', path: '/', headers: { authorization: 'Bearer t\r\nx-evil: 1' } }),
    ).toThrow(/not a header/);
    expect(() => requestBytes({ method: 'GET', path: '/', headers: { 'a b': 'x' } })).toThrow(/not a header/);
  });

  it('refuses what is not a whole HTTP answer', () => {
    const bytes = (s: string) => Buffer.from(s, 'latin1');
    expect(parseResponse(bytes('HTTP/1.1 204 No Content\r\nx-a: 1\r\n\r\n'))).toEqual({
      status: 204,
      headers: { 'x-a': '1' },
      body: '',
    });
    expect(() => parseResponse(bytes('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n{}'))).toThrow(/not the 5/);
    expect(() => parseResponse(bytes('HTTP/1.1 200 OK\r\n'))).toThrow(/no end of headers/);
    expect(() => parseResponse(bytes('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow(/status line/);
    expect(() => parseResponse(bytes('HTTP/1.1 200 OK\r\nbad header\r\n\r\n'))).toThrow(/header/);
    expect(() =>
      parseResponse(bytes('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}')),
    ).toThrow(/chunked/);
  });

  it('gives up on a peer that trickles bytes, and on one that sends too much', async () => {
    const trickle = net.createServer((s) => {
      s.on('error', () => undefined);
      const timer = setInterval(() => s.write('H'), 20);
      s.on('close', () => clearInterval(timer));
    });
    const flood = net.createServer((s) => {
      s.on('error', () => undefined);
      const chunk = Buffer.alloc(1 << 20, 'x');
      const pump = () => {
        while (s.writable && s.write(chunk));
      };
      s.on('drain', pump);
      pump();
    });
    await listen(trickle);
    await listen(flood);
    try {
      const at = (server: net.Server) => ({
        host: '127.0.0.1',
        port: (server.address() as net.AddressInfo).port,
      });
      const start = Date.now();
      await expect(exchange(at(trickle), { method: 'GET', path: '/', headers: {} }, 300)).rejects.toThrow(
        /within 300 ms/,
      );
      expect(Date.now() - start).toBeLessThan(5_000);
      await expect(exchange(at(flood), { method: 'GET', path: '/', headers: {} }, 20_000)).rejects.toThrow(
        /longer than/,
      );
    } finally {
      trickle.close();
      flood.close();
    }
  });

  it('reports a refused connection by its code', async () => {
    const error = await exchange(
      { socket: join(dir, 'nobody.sock') },
      { method: 'GET', path: '/', headers: {} },
      1_000,
    )
      .then(() => undefined)
      .catch((e: NodeJS.ErrnoException) => e.code);
    expect(error).toBe('ENOENT');
  });
});
