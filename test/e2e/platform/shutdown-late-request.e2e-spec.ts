import { connect } from 'node:net';
import { expectProblem } from '@test/support/problem';
import { openRaw } from '@test/support/shutdown';
import { startTestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/** Splits the HTTP/1.1 answers received on one connection (each with a Content-Length). */
function splitAnswers(text: string): { status: number; headers: Headers; body: string }[] {
  const answers = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = new Headers(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    const length = Number(headers.get('content-length') ?? 0);
    answers.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });

describe(`a request arriving while the server closes (${testDatabaseKind()})`, () => {
  it('is answered 503 shutting_down as problem+json, while earlier ones get their normal answer', async () => {
    const t = await startTestApp();
    const port = Number(new URL(t.baseUrl).port);
    const login = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' });
    const head = `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${login.length}\r\n\r\n`;
    const half = login.slice(0, 10);

    // In flight at the signal: its body is held back, so shutdown waits for it.
    const early = await openRaw(port);
    early.socket.write(head + half);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closed = t.close();
    const draining = Date.now();
    while ((await t.http('/health/ready')).status !== 503) {
      if (Date.now() - draining > 10_000) throw new Error('readiness never answered 503');
    }
    // Sent while the drain lasts, also held back, so the server cannot close this connection.
    const late = await openRaw(port);
    late.socket.write(head + half);
    await new Promise((resolve) => setTimeout(resolve, 200));

    // The early request finishes: the drain is over and the server closes.
    early.socket.write(login.slice(10));
    const closing = Date.now();
    while (!(await refused(port))) {
      if (Date.now() - closing > 15_000) throw new Error('the server never stopped listening');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Fastify still reads the open connection: the late request, then one pipelined behind it.
    late.socket.write(login.slice(10) + 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => late.socket.on('close', resolve));
    await closed;

    const [earlyAnswer] = splitAnswers(early.received());
    const [lateAnswer, refusedAnswer] = splitAnswers(late.received());
    expect(earlyAnswer.status).toBe(401);
    expect(lateAnswer.status).toBe(401);
    const problem = new Response(refusedAnswer.body, {
      status: refusedAnswer.status,
      headers: refusedAnswer.headers,
    });
    await expectProblem(problem, 503, 'shutting_down');
    expect(refusedAnswer.headers.get('retry-after')).toBe('5');
    expect(refusedAnswer.headers.get('x-request-id')).toBeTruthy();
    expect(refusedAnswer.headers.get('cache-control')).toBe('no-store');
    expect(refusedAnswer.headers.get('x-content-type-options')).toBe('nosniff');
  }, 60_000);
});
