import { Injectable } from '@nestjs/common';
import { hashApiKey, looksLikeApiKey } from './api-key-material';
import { AppConfig } from '@/config/app-config';
import { withDeadline } from '@/database/database-errors';
import { ApiKeysRepository } from './api-keys.repository';
import { controlsOf, servingControls } from './model-controls';
import { affects, CredentialChange, KeyCredential } from './publisher-credentials';

interface CacheEntry {
  credential: KeyCredential | null;
  expiresAt: number;
}

/**
 * Resolves an API key secret to its model and publisher. Results (including "unknown key")
 * are cached for API_KEY_CACHE_SECONDS so fetch-ads does not read the database per request;
 * a revoke, deactivation, change of a model's controls or suspension clears the affected
 * entries at once, on this
 * instance and (through CredentialChanges and REDIS_URL) on the others.
 */
@Injectable()
export class ApiKeyResolver {
  private readonly cache = new Map<string, CacheEntry>();
  /** Reads in flight, by key hash, with the invalidation generation they started in. */
  private readonly loading = new Map<
    string,
    { read: Promise<KeyCredential | null>; generation: number }
  >();
  private generation = 0;
  private static readonly MAX_ENTRIES = 100_000;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly config: AppConfig,
  ) {}

  async resolve(secret: string): Promise<KeyCredential | null> {
    if (!looksLikeApiKey(secret)) return null;
    const hash = hashApiKey(secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.credential;
    // Concurrent calls with the same key share one read: under load, a miss per call would
    // queue hundreds of identical reads behind the impression writes (a stampede at start
    // and whenever an entry expires).
    let loading = this.loading.get(hash);
    if (!loading) {
      const generation = this.generation;
      // A stalled database answers fetch-ads 503 in time instead of holding it.
      const lookup = withDeadline(this.load(hash), this.config.databaseTimeoutMs, 'API key lookup');
      const read = lookup.finally(() => {
        if (this.loading.get(hash)?.read === read) this.loading.delete(hash);
      });
      loading = { read, generation };
      this.loading.set(hash, loading);
    }
    const credential = await loading.read;
    // A revoke (or any invalidation) while the read ran may have come after what it saw:
    // answer with it this once, but do not keep it.
    if (loading.generation === this.generation) {
      if (this.cache.size >= ApiKeyResolver.MAX_ENTRIES) this.cache.clear();
      this.cache.set(hash, { credential, expiresAt: now + this.config.apiKeyCacheMs });
    }
    return credential;
  }

  /** Forgets the cached credentials a change affects: one key, a model's or a publisher's. */
  forget(change: CredentialChange): void {
    this.forgetWhere((c) => affects(change, c));
  }

  /** Forgets every cached credential, e.g. when changes may have been missed. */
  forgetAll(): void {
    this.forgetReadsInFlight();
    this.cache.clear();
  }

  /** Forgets remembered unknown keys, e.g. after a key is created. */
  forgetUnknown(): void {
    this.forgetReadsInFlight();
    for (const [hash, entry] of this.cache) if (!entry.credential) this.cache.delete(hash);
  }

  private forgetWhere(matches: (credential: KeyCredential) => boolean): void {
    this.forgetReadsInFlight();
    for (const [hash, entry] of this.cache) {
      if (entry.credential && matches(entry.credential)) this.cache.delete(hash);
    }
  }

  /** Reads that started before an invalidation may hold what it changed: start new ones. */
  private forgetReadsInFlight(): void {
    this.generation += 1;
    this.loading.clear();
  }

  private async load(hash: string): Promise<KeyCredential | null> {
    const key = await this.keys.findByHashWithOwners(hash);
    if (!key?.model?.publisher) return null;
    return {
      keyId: key.id,
      keyStatus: key.status,
      keyKind: key.kind,
      modelId: key.modelId,
      modelStatus: key.model.status,
      // A model deactivated before `deactivated_by` existed was deactivated by its publisher.
      modelDeactivatedBy:
        key.model.status === 'deactivated' ? (key.model.deactivatedBy ?? 'publisher') : null,
      controls: servingControls(controlsOf(key.model)),
      publisherId: key.model.publisherId,
      publisherStatus: key.model.publisher.status,
      revenueSharePpm: key.model.publisher.revenueSharePpm,
    };
  }
}
