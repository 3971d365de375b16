import { connect, type Socket } from 'node:net';

/** The shutdown's one line: `drained N requests, committed I impressions and C clicks`. */
export const SHUTDOWN_COMPLETE =
  /^shutdown complete in \d+\.\d s after SIGTERM: drained (\d+) requests(?: \((\d+) cut off[^)]*\))?, committed (\d+) impressions and (\d+) clicks, connections closed$/;

/** The `msg` of each JSON log line (other lines, such as the demo key, are skipped). */
export function messages(stdout: string): string[] {
  return stdout.split('\n').flatMap((line) => {
    try {
      return [(JSON.parse(line) as { msg: string }).msg];
    } catch {
      return [];
    }
  });
}

/** A raw connection, to hold a request half sent and to pipeline another behind it. */
export function openRaw(port: number): Promise<{ socket: Socket; received: () => string }> {
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, received: () => data }));
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('error', reject);
  });
}
