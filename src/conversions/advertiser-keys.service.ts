import { Injectable } from '@nestjs/common';
import { AdvertisersService } from '@/campaigns/advertisers/advertisers.service';
import { ProblemException } from '@/common/problem';
import { AppConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { withDeadline } from '@/database/database-errors';
import {
  generateAdvertiserKey,
  hashAdvertiserKey,
  looksLikeAdvertiserKey,
} from './advertiser-key-material';
import { AdvertiserKeysRepository } from './advertiser-keys.repository';
import {
  AdvertiserKeyListDto,
  CreateAdvertiserKeyDto,
  CreatedAdvertiserKeyDto,
  toAdvertiserKeyDto,
} from './dto/advertiser-key.dto';

const MAX_CACHED = 10_000;

/**
 * Advertisers' conversion keys: the operator API (create, list, revoke) and resolving a key
 * to its advertiser, cached for API_KEY_CACHE_SECONDS. A revoke clears this instance's cache
 * at once; other instances stop accepting the key when their entry expires.
 */
@Injectable()
export class AdvertiserKeysService {
  private readonly cache = new Map<string, { advertiserId: string | null; expiresAt: number }>();

  constructor(
    private readonly keys: AdvertiserKeysRepository,
    private readonly advertisers: AdvertisersService,
    private readonly config: AppConfig,
  ) {}

  async create(
    advertiserId: string,
    dto: CreateAdvertiserKeyDto,
  ): Promise<CreatedAdvertiserKeyDto> {
    await this.requireAdvertiser(advertiserId);
    const { secret, prefix, hash } = generateAdvertiserKey();
    const key = {
      id: newId(),
      advertiserId,
      keyHash: hash,
      keyPrefix: prefix,
      label: dto.label ?? null,
      createdAt: new Date(),
      revokedAt: null,
    };
    await this.keys.insert(key);
    // An "unknown key" answer may be cached for this secret's hash: unlikely, but cheap.
    this.cache.delete(hash);
    return { ...toAdvertiserKeyDto(key), key: secret };
  }

  async list(advertiserId: string): Promise<AdvertiserKeyListDto> {
    await this.requireAdvertiser(advertiserId);
    return { keys: (await this.keys.listOf(advertiserId)).map(toAdvertiserKeyDto) };
  }

  async revoke(advertiserId: string, keyId: string): Promise<void> {
    if (!(await this.keys.revoke(advertiserId, keyId, new Date()))) {
      throw ProblemException.notFound(
        'advertiser_key_not_found',
        'This advertiser has no key with this id.',
      );
    }
    this.cache.clear();
  }

  /** The advertiser of an active key, or null. */
  async advertiserOf(secret: string): Promise<string | null> {
    if (!looksLikeAdvertiserKey(secret)) return null;
    const hash = hashAdvertiserKey(secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.advertiserId;
    const advertiserId = await withDeadline(
      this.keys.activeAdvertiserOf(hash),
      this.config.databaseTimeoutMs,
      'advertiser key lookup',
    );
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(hash, { advertiserId, expiresAt: now + this.config.apiKeyCacheMs });
    return advertiserId;
  }

  private async requireAdvertiser(id: string): Promise<void> {
    if (!(await this.advertisers.findById(id))) {
      throw ProblemException.notFound('advertiser_not_found', 'No advertiser has this id.');
    }
  }
}
