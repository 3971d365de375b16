import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between the app and the shared database server, so a test can stall or cut
 * the app's database without touching the server other test files use: `freeze()` stops
 * forwarding both ways, connections staying open (what a SIGSTOPped server looks like from
 * outside), `down()` closes every connection and refuses new ones (a stopped server).
 */
export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  route(url: string): string;
  freeze(): void;
  thaw(): void;
  /**
   * On the next connection that sends `first` and then `then` (e.g. a transaction's INSERT
   * and its COMMIT), forwards both but holds back every answer from then on: the statement
   * lands on the server while the app never hears of it.
   */
  loseAnswerTo(first: string, then: string): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let frozen = false;
  let loseAnswer: { first: string; then: string } | null = null;
  const setFlowing = (flowing: boolean) => {
    for (const pair of pairs) {
      for (const socket of pair) {
        if (flowing) socket.resume();
        else socket.pause();
      }
    }
  };
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    let sentFirst = false;
    client.on('data', (chunk: Buffer) => {
      if (!loseAnswer) return;
      if (chunk.includes(loseAnswer.first)) sentFirst = true;
      else if (sentFirst && chunk.includes(loseAnswer.then)) {
        loseAnswer = null;
        upstream.pause();
      }
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    // A connection opened during a freeze hangs too (its handshake never arrives).
    if (frozen) for (const socket of pair) socket.pause();
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen(0);
  const port = (server.address() as { port: number }).port;
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));

  return {
    port,
    route: (url) => {
      const routed = new URL(url.replace(/^mariadb:/, 'mysql:'));
      routed.host = `127.0.0.1:${port}`;
      return url.startsWith('mariadb:')
        ? routed.toString().replace(/^mysql:/, 'mariadb:')
        : routed.toString();
    },
    freeze: () => {
      frozen = true;
      setFlowing(false);
    },
    thaw: () => {
      frozen = false;
      setFlowing(true);
    },
    loseAnswerTo: (first, then) => {
      loseAnswer = { first, then };
    },
    down: async () => {
      const closed = closeServer();
      for (const pair of pairs) for (const socket of pair) socket.destroy();
      await closed;
    },
    up: () => listen(port),
    close: async () => {
      const closed = server.listening ? closeServer() : Promise.resolve();
      for (const pair of pairs) for (const socket of pair) socket.destroy();
      await closed;
    },
  };
}
