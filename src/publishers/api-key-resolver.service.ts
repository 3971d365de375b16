import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hashApiKey, looksLikeApiKey } from '@/auth/api-key-material';
import { AppConfig } from '@/config/app-config';
import { ApiKey } from './entities/api-key.entity';
import { KeyCredential } from './publisher-credentials';

interface CacheEntry {
  credential: KeyCredential | null;
  expiresAt: number;
}

/**
 * Resolves an API key secret to its model and publisher. Results (including "unknown key")
 * are cached for API_KEY_CACHE_SECONDS so fetch-ads does not read the database per request;
 * a revoke, deactivation or suspension on this instance clears the affected entries at once.
 */
@Injectable()
export class ApiKeyResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private static readonly MAX_ENTRIES = 100_000;

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly config: AppConfig,
  ) {}

  async resolve(secret: string): Promise<KeyCredential | null> {
    if (!looksLikeApiKey(secret)) return null;
    const hash = hashApiKey(secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.credential;
    const credential = await this.load(hash);
    if (this.cache.size >= ApiKeyResolver.MAX_ENTRIES) this.cache.clear();
    this.cache.set(hash, { credential, expiresAt: now + this.config.apiKeyCacheMs });
    return credential;
  }

  /** Forgets cached credentials matching the predicate (a revoked key, a deactivated model…). */
  invalidate(matches: (credential: KeyCredential) => boolean): void {
    for (const [hash, entry] of this.cache) {
      if (entry.credential && matches(entry.credential)) this.cache.delete(hash);
    }
  }

  /** Forgets remembered unknown keys, e.g. after a key is created. */
  forgetUnknown(): void {
    for (const [hash, entry] of this.cache) if (!entry.credential) this.cache.delete(hash);
  }

  private async load(hash: string): Promise<KeyCredential | null> {
    const key = await this.keys.findOne({
      where: { keyHash: hash },
      relations: { model: { publisher: true } },
    });
    if (!key?.model?.publisher) return null;
    return {
      keyId: key.id,
      keyStatus: key.status,
      modelId: key.modelId,
      modelStatus: key.model.status,
      publisherId: key.model.publisherId,
      publisherStatus: key.model.publisher.status,
      revenueSharePpm: key.model.publisher.revenueSharePpm,
    };
  }
}
