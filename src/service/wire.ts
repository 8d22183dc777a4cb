import { connect } from 'node:net';

// The client side of talking to the service: one HTTP/1.0 exchange per connection, which the service closes
// after its answer. A forwarding hook is a process started for one call; node:http's client (its agent,
// parser and streams, and the address checks its agent makes) cost it more than the rest of the call.

/** Where the service listens: its Unix socket, or a loopback host and port. */
export type WireAddress = { socket: string } | { host: string; port: number };

export interface WireRequest {
  method: 'GET' | 'POST';
  path: string;
  /** Header names and values; a value with a line break is refused, so no header can forge another. */
  headers: Record<string, string>;
  body?: string;
}

export interface WireResponse {
  status: number;
  /** Lower-case names; a header given twice keeps its last value. */
  headers: Record<string, string>;
  body: string;
}

/** More than any hook answer; a peer that sends more is not the service. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;

/** The request as bytes: the request line, the headers, the length of the body and the body. */
export function requestBytes(request: WireRequest): Buffer {
  const body = Buffer.from(request.body ?? '', 'utf8');
  const lines = [`${request.method} ${request.path} HTTP/1.0`, 'host: localhost'];
  for (const [name, value] of Object.entries(request.headers)) {
    if (!HEADER_LINE.test(`${name}: ${value}`) || /[\r\n]/.test(value))
      throw new Error(`not a header: ${JSON.stringify(name)}`);
    lines.push(`${name}: ${value}`);
  }
  if (request.body !== undefined) lines.push(`content-length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** The response in `bytes`, all of what the peer sent before it closed; an error when it is no HTTP answer. */
export function parseResponse(bytes: Buffer): WireResponse {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error('the answer has no end of headers');
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = STATUS_LINE.exec(statusLine);
  if (!status) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine.slice(0, 80))}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const header = HEADER_LINE.exec(line);
    if (!header) throw new Error(`not an HTTP header: ${JSON.stringify(line.slice(0, 80))}`);
    headers[(header[1] as string).toLowerCase()] = header[2] as string;
  }
  if (headers['transfer-encoding']) throw new Error('a chunked answer to an HTTP/1.0 request');
  const body = bytes.subarray(end + 4);
  const length = headers['content-length'];
  if (length !== undefined && (!/^\d+$/.test(length) || Number(length) !== body.length))
    throw new Error(`the answer is ${body.length} bytes, not the ${length} it announced`);
  return { status: Number(status[1]), headers, body: body.toString('utf8') };
}

/** The code of the error when the peer sent nothing within `firstByteMs` (see exchange). */
export const NO_FIRST_BYTE = 'EAUTOMODENOANSWER';

/**
 * Sends one request and reads the answer until the peer closes. The timer covers the whole exchange, not the
 * time between bytes: a peer that trickles bytes still runs out of time. With `firstByteMs`, a peer that has
 * sent nothing that soon fails the exchange with the code NO_FIRST_BYTE (a service that accepted the connection
 * but does not run: stopped, or stuck).
 */
export function exchange(
  address: WireAddress,
  request: WireRequest,
  timeoutMs: number,
  firstByteMs?: number,
): Promise<WireResponse> {
  const bytes = requestBytes(request);
  return new Promise((resolve, reject) => {
    const socket = 'socket' in address ? connect(address.socket) : connect(address.port, address.host);
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (e: Error) => {
      clearTimeout(timer);
      clearTimeout(first);
      socket.destroy();
      reject(e);
    };
    const timer = setTimeout(
      () => fail(new Error(`the service did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const first =
      firstByteMs !== undefined && firstByteMs < timeoutMs
        ? setTimeout(
            () =>
              fail(
                Object.assign(new Error(`the service sent nothing within ${firstByteMs} ms`), {
                  code: NO_FIRST_BYTE,
                }),
              ),
            firstByteMs,
          )
        : undefined;
    socket.on('error', fail);
    socket.on('data', (chunk: Buffer) => {
      clearTimeout(first);
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) fail(new Error(`the answer is longer than ${MAX_RESPONSE_BYTES} bytes`));
      else chunks.push(chunk);
    });
    socket.on('end', () => {
      clearTimeout(timer);
      clearTimeout(first);
      socket.destroy();
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (e) {
        reject(e);
      }
    });
    // Not end(): the service would take a half-closed connection for an abandoned request. It closes the
    // connection after its answer, as HTTP/1.0 without keep-alive asks.
    socket.write(bytes);
  });
}
