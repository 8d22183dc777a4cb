import { createServer } from 'node:net';

/** A TCP listener on 127.0.0.1 that counts the connections it gets: a sandbox must never reach it. */
export async function countingListener(): Promise<{
  port: number;
  connections: () => number;
  close: () => void;
}> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => server.close(),
  };
}
