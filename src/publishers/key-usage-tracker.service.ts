import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository';

/** How often remembered uses are written: at most one write per key per interval. */
export const KEY_USAGE_FLUSH_MS = 60_000;

/**
 * Keeps `api_keys.last_used_at` without a database write per fetch-ads call: uses are
 * remembered in memory and written once a minute (and at shutdown), one write per key used
 * since the last flush, which never moves the time backwards.
 */
@Injectable()
export class KeyUsageTracker implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(KeyUsageTracker.name);
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(private readonly keys: ApiKeysRepository) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), KEY_USAGE_FLUSH_MS);
    // A pending write must not keep a process alive that is otherwise done.
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Before TypeORM closes its connections (which it does in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Remembers that a key was just used; cheap enough for every request. */
  recordUse(keyId: string, at = new Date()): void {
    this.pending.set(keyId, at);
  }

  /** A use this instance has not written yet, so lists can show it before the flush. */
  unwrittenUse(keyId: string): Date | null {
    return this.pending.get(keyId) ?? null;
  }

  /** Writes the remembered uses; a failed write keeps them for the next flush. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    if (batch.size === 0) return;
    this.pending = new Map();
    try {
      for (const [keyId, at] of batch) await this.keys.recordLastUse(keyId, at);
    } catch (error) {
      // Keep what was not written, unless a newer use of the same key arrived meanwhile.
      for (const [keyId, at] of batch) if (!this.pending.has(keyId)) this.pending.set(keyId, at);
      this.logger.warn(`could not write last_used_at of API keys: ${String(error)}`);
    }
  }
}
