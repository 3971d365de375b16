import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { type BroadcastMessage, RedisBroadcast } from '@/redis/redis-broadcast';
import { ApiKeyResolver } from './api-key-resolver.service';
import type { CredentialChange } from './publisher-credentials';

const CHANNEL = 'adline:credentials:changed';
const KINDS: ReadonlySet<string> = new Set<CredentialChange['kind']>(['key', 'model', 'publisher']);

/**
 * Makes a committed key revoke, model change (status, controls) or publisher change reach fetch-ads:
 * this instance's cached key resolutions are dropped at once and, with REDIS_URL, every
 * other instance's as soon as the announcement arrives. Without Redis (or while it is
 * away) the others' entries expire within API_KEY_CACHE_SECONDS.
 */
@Injectable()
export class CredentialChanges implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CredentialChanges.name);
  private broadcast: RedisBroadcast | null = null;

  constructor(
    private readonly resolver: ApiKeyResolver,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.redisUrl) return;
    this.broadcast = await RedisBroadcast.open(
      this.config.redisUrl,
      CHANNEL,
      {
        onMessage: (message) => this.onRemote(message),
        // Announcements sent while the connection was down are lost: start afresh.
        onReconnect: () => this.resolver.forgetAll(),
      },
      this.logger,
    );
  }

  onApplicationShutdown(): void {
    this.broadcast?.close();
  }

  /**
   * Called after the change is committed; never fails the call that made it (a retry would
   * repeat it). A lost announcement is logged once per outage and only delays the others.
   */
  async announce(change: CredentialChange): Promise<void> {
    this.resolver.forget(change);
    await this.broadcast
      ?.publish({ kind: change.kind, id: change.id })
      .catch((error: Error) => this.broadcast?.noteOutage(`publish failed: ${error.message}`));
  }

  /** A message this version cannot read may still be a change: forget everything. */
  private onRemote({ kind, id }: BroadcastMessage): void {
    if (typeof kind === 'string' && KINDS.has(kind) && typeof id === 'string') {
      this.resolver.forget({ kind: kind as CredentialChange['kind'], id });
    } else {
      this.resolver.forgetAll();
    }
  }
}
