import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { RedisChangeChannel } from './redis-change-channel';

export type CampaignChangeListener = () => Promise<void>;

/**
 * Tells whatever caches campaigns (the ad index) that campaigns changed: this instance's
 * listeners at once, awaited, so a change is live when the call that made it returns; and,
 * with REDIS_URL, every other instance through a Redis channel. Without Redis the other
 * instances catch up at their periodic rebuild (CAMPAIGN_INDEX_REFRESH_SECONDS).
 */
@Injectable()
export class CampaignChangeNotifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CampaignChangeNotifier.name);
  private readonly listeners: CampaignChangeListener[] = [];
  private channel: RedisChangeChannel | null = null;
  private remoteRun: Promise<void> | null = null;
  private remoteAgain = false;

  constructor(private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.redisUrl) return;
    this.channel = await RedisChangeChannel.open(
      this.config.redisUrl,
      () => this.onRemoteChange(),
      this.logger,
    );
  }

  onApplicationShutdown(): void {
    this.channel?.close();
  }

  onChange(listener: CampaignChangeListener): void {
    this.listeners.push(listener);
  }

  async notifyChanged(): Promise<void> {
    await this.runListeners();
    // A lost announcement only delays the other instances until their periodic rebuild,
    // so it must not fail the change that has already been committed.
    await this.channel?.publish().catch((error: Error) => this.logFailure(error));
  }

  /**
   * A burst of announcements (say, many clicks exhausting budgets at once on other
   * instances) becomes one rebuild now and at most one more, not one per message.
   */
  private onRemoteChange(): void {
    if (this.remoteRun) {
      this.remoteAgain = true;
      return;
    }
    this.remoteRun = (async () => {
      do {
        this.remoteAgain = false;
        await this.runListeners().catch((error: Error) => this.logFailure(error));
      } while (this.remoteAgain);
      this.remoteRun = null;
    })();
  }

  private async runListeners(): Promise<void> {
    for (const listener of this.listeners) await listener();
  }

  private logFailure(error: Error): void {
    this.logger.error(`campaign change not propagated: ${error.message}`, error.stack);
  }
}
