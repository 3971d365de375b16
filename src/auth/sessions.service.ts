import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { Session } from './entities/session.entity';
import { SessionsRepository } from './sessions.repository';

interface SessionClaims {
  sid: string;
  sub: string;
}

/**
 * Sessions are rows (so sign-out and suspension end them at once) referenced by a signed
 * token (so a forged or altered token is rejected before any database read).
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  async start(publisherId: string): Promise<{ token: string; expiresAt: Date }> {
    const now = new Date();
    const session = await this.sessions.insert({
      id: newId(),
      publisherId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.config.sessionTtlMs),
      revokedAt: null,
    });
    const claims: SessionClaims = { sid: session.id, sub: publisherId };
    const token = await this.jwt.signAsync(claims, {
      expiresIn: Math.floor(this.config.sessionTtlMs / 1000),
    });
    return { token, expiresAt: session.expiresAt };
  }

  /** The live session a token refers to, or null for a bad, expired or ended one. */
  async resolve(token: string): Promise<Session | null> {
    let claims: SessionClaims;
    try {
      claims = await this.jwt.verifyAsync<SessionClaims>(token);
    } catch {
      return null;
    }
    return this.sessions.findLive(claims.sid, claims.sub, new Date());
  }

  async end(sessionId: string): Promise<void> {
    await this.sessions.revoke(sessionId, new Date());
  }

  /** Ends every session of the account (after a password change, all but `except`). */
  async endAllOf(publisherId: string, except?: string): Promise<void> {
    await this.sessions.revokeAllOf(publisherId, new Date(), except);
  }
}
