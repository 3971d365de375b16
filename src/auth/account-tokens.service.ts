import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { Clock } from '@/common/clock';
import { newId } from '@/database/columns';
import { AccountTokensRepository } from './account-tokens.repository';
import type { AccountTokenPurpose } from './entities/account-token.entity';

const HOUR_MS = 3_600_000;

/** How long a mailed link works: a reset link briefly, a verification link a day. */
const LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  password_reset: HOUR_MS,
  email_verification: 24 * HOUR_MS,
};

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * One-time tokens for links mailed to an account: 32 random bytes (base64url) handed out
 * once, only their SHA-256 stored, so a copy of the table opens no account. Times come from
 * the Clock, so a test can let a token expire.
 */
@Injectable()
export class AccountTokens {
  constructor(
    private readonly tokens: AccountTokensRepository,
    private readonly clock: Clock,
  ) {}

  async issue(publisherId: string, purpose: AccountTokenPurpose): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.tokens.insert({
      id: newId(),
      publisherId,
      purpose,
      tokenHash: hashOf(token),
      expiresAt: new Date(now.getTime() + LIFETIME_MS[purpose]),
      usedAt: null,
      createdAt: now,
    });
    return token;
  }

  /** The publisher the token was issued to, spending it; null for an unknown, used or expired one. */
  use(token: string, purpose: AccountTokenPurpose): Promise<string | null> {
    return this.tokens.use(hashOf(token), purpose, this.clock.now());
  }

  /** Spends the publisher's other tokens for this purpose (older reset links stop working). */
  useAllOf(publisherId: string, purpose: AccountTokenPurpose): Promise<void> {
    return this.tokens.useAllOf(publisherId, purpose, this.clock.now());
  }
}
