import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, type Repository } from 'typeorm';
import { AccountToken, type AccountTokenPurpose } from './entities/account-token.entity';

/** The account_tokens table's queries. */
@Injectable()
export class AccountTokensRepository {
  constructor(@InjectRepository(AccountToken) private readonly tokens: Repository<AccountToken>) {}

  async insert(token: AccountToken): Promise<void> {
    await this.tokens.insert(token);
  }

  /**
   * Marks the token used if it is unused and unexpired at `now`, and returns its publisher;
   * null otherwise. One conditional update, so two concurrent uses cannot both succeed.
   */
  async use(tokenHash: string, purpose: AccountTokenPurpose, now: Date): Promise<string | null> {
    const { affected } = await this.tokens.update(
      { tokenHash, purpose, usedAt: IsNull(), expiresAt: MoreThan(now) },
      { usedAt: now },
    );
    if (!affected) return null;
    const token = await this.tokens.findOneBy({ tokenHash });
    return token?.publisherId ?? null;
  }

  /** Marks every unused token of the publisher for this purpose used. */
  async useAllOf(publisherId: string, purpose: AccountTokenPurpose, now: Date): Promise<void> {
    await this.tokens.update({ publisherId, purpose, usedAt: IsNull() }, { usedAt: now });
  }
}
