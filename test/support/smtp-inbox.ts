import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the inbox received it: envelope recipients, decoded subject and text. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The text/plain body, transfer encoding undone. */
  text: string;
  raw: string;
}

export interface SmtpInbox {
  /** For the app's SMTP_URL: `smtp://127.0.0.1:<port>`. */
  url: string;
  /** Every mail received so far, oldest first. */
  mails: ReceivedMail[];
  /** Every mail received so far for this address. */
  mailsTo(to: string): ReceivedMail[];
  /**
   * The next mail for this address (whose subject matches `subject`, when given) that no
   * earlier call returned, waiting for it up to `timeoutMs` (default 10 s): successive calls
   * return successive mails.
   */
  waitForMail(
    to: string,
    options?: { subject?: RegExp; timeoutMs?: number },
  ): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process, on a free port of 127.0.0.1, without TLS and
 * taking any credentials or none, that keeps what it receives. Start the app with
 * `SMTP_URL: inbox.url`, then read the mail: `linkIn(await inbox.waitForMail(email))`.
 * Plain Node (no Jest, no path aliases), so browser tests can use it as well.
 */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          ...parseMessage(raw),
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
        });
        for (const wake of [...waiters]) wake();
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  const mailsTo = (to: string) => mails.filter((m) => m.to.includes(to.toLowerCase()));
  const nextFor = (to: string, subject = /(?:)/) =>
    mailsTo(to).find((m) => !taken.has(m) && subject.test(m.subject));

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    mailsTo,
    waitForMail(to, { subject, timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = nextFor(to, subject);
          if (!mail) return;
          taken.add(mail);
          finish();
          resolve(mail);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no mail for ${to} within ${timeoutMs} ms (${mails.length} received)`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first http(s) link of a mail's text. */
export function linkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/[^\s<>"]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/** The `token` parameter of a mail's link (after the `#` of a dashboard route too). */
export function tokenIn(mail: ReceivedMail): string {
  const token = /[?&]token=([^&#\s]+)/.exec(linkIn(mail))?.[1];
  if (!token) throw new Error(`no token in the link of "${mail.subject}"`);
  return decodeURIComponent(token);
}

/**
 * Just enough of RFC 5322/2045/2047 for the mails nodemailer writes: headers unfolded, the
 * subject's encoded words decoded, and the text/plain part (of a multipart message too)
 * with its quoted-printable or base64 transfer encoding undone.
 */
function parseMessage(raw: string): { subject: string; text: string } {
  const { headers, body } = splitPart(raw);
  return { subject: decodeWords(headers.get('subject') ?? ''), text: textOf(headers, body) };
}

function splitPart(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function textOf(headers: Map<string, string>, body: string): string {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      const parsed = splitPart(part.replace(/^\r?\n/, ''));
      const text = textOf(parsed.headers, parsed.body);
      if (text) return text;
    }
    return '';
  }
  if (!/^text\/plain/i.test(type)) return '';
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function decodeQuotedPrintable(text: string): string {
  const escaped = text
    .replace(/=\r?\n/g, '')
    .replace(/%/g, '%25')
    .replace(/=([0-9A-F]{2})/gi, '%$1');
  return decodeURIComponent(escaped);
}

function decodeWords(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([BQ])\?([^?]*)\?=\s*/gi,
    (_, _charset, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}
