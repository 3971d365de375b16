import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Not, type Repository } from 'typeorm';
import { Session } from './entities/session.entity';

/** The sessions table's queries. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectRepository(Session) private readonly sessions: Repository<Session>) {}

  /** Stores a new session and returns it as stored. */
  insert(session: Session): Promise<Session> {
    return this.sessions.save(this.sessions.create(session));
  }

  /** The publisher's session with this id if it is neither ended nor expired at `now`. */
  findLive(id: string, publisherId: string, now: Date): Promise<Session | null> {
    return this.sessions.findOneBy({
      id,
      publisherId,
      revokedAt: IsNull(),
      expiresAt: MoreThan(now),
    });
  }

  async revoke(id: string, at: Date): Promise<void> {
    await this.sessions.update({ id }, { revokedAt: at });
  }

  /** Ends every live session of the publisher, but the one with id `except` when given. */
  async revokeAllOf(publisherId: string, at: Date, except?: string): Promise<void> {
    await this.sessions.update(
      { publisherId, revokedAt: IsNull(), ...(except ? { id: Not(except) } : {}) },
      { revokedAt: at },
    );
  }
}
