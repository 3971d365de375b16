import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '@/auth/session-cookie';
import { DashboardFiles } from './dashboard-files';

/**
 * Scripts, styles and connections only from this origin; no inline code, no framing.
 * The page needs nothing else, so an injected script has nowhere to load from or talk to.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Answers a request for the dashboard's one HTML page (every view is a hash route in it). */
@Injectable()
export class DashboardPage {
  constructor(private readonly files: DashboardFiles) {}

  async send(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const html = await this.files.indexHtml();
    if (html === null) {
      await reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built yet: run `npm run build`, then reload.');
      return;
    }
    // The cookie is HttpOnly, so the page cannot see it; it is told whether one was sent, and
    // asks who is signed in only then (a signed-out visit makes no request that answers 401).
    const session = request.cookies?.[SESSION_COOKIE] ? 'present' : 'absent';
    await reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      // Helmet's SAMEORIGIN would contradict the policy's frame-ancestors 'none'.
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html.replace('%SESSION%', session));
  }
}
