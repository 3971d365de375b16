import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { AdvertiserApiKey } from './entities/advertiser-api-key.entity';

/** The advertiser_api_keys table. */
@Injectable()
export class AdvertiserKeysRepository {
  constructor(
    @InjectRepository(AdvertiserApiKey) private readonly keys: Repository<AdvertiserApiKey>,
  ) {}

  async insert(key: AdvertiserApiKey): Promise<void> {
    await this.keys.insert(key);
  }

  /** Newest first, revoked keys included. */
  listOf(advertiserId: string): Promise<AdvertiserApiKey[]> {
    return this.keys.find({ where: { advertiserId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** Revokes the advertiser's key; false when it has no such key. */
  async revoke(advertiserId: string, id: string, at: Date): Promise<boolean> {
    const key = await this.keys.findOneBy({ id, advertiserId });
    if (!key) return false;
    await this.keys.update({ id, advertiserId, revokedAt: IsNull() }, { revokedAt: at });
    return true;
  }

  /** The advertiser of an active key with this hash, or null. */
  async activeAdvertiserOf(hash: string): Promise<string | null> {
    const key = await this.keys.findOne({
      select: { advertiserId: true },
      where: { keyHash: hash, revokedAt: IsNull() },
    });
    return key?.advertiserId ?? null;
  }
}
