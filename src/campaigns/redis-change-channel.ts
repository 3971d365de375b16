import type { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

const CHANNEL = 'adline:campaigns:changed';

/** What another instance announced: campaigns changed, or one campaign ran out of budget. */
export type RemoteAnnouncement = { kind: 'changed' } | { kind: 'exhausted'; campaignId: string };

/**
 * A Redis pub/sub channel on which instances announce "campaigns changed" or "this campaign
 * ran out of budget". Each instance ignores its own announcements: it has already acted on
 * them before it publishes.
 */
export class RedisChangeChannel {
  private readonly instanceId = randomUUID();

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
  ) {}

  /** Connects and subscribes; fails (and closes) when the server does not answer. */
  static async open(
    url: string,
    onRemote: (announcement: RemoteAnnouncement) => void,
    logger: Logger,
  ): Promise<RedisChangeChannel> {
    // Without an offline queue a publish during an outage fails at once instead of waiting:
    // the other instances then catch up at their periodic rebuild.
    const publisher = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    const subscriber = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    for (const connection of [publisher, subscriber]) {
      connection.on('error', (error: Error) => logger.warn(`redis: ${error.message}`));
    }
    const channel = new RedisChangeChannel(publisher, subscriber);
    try {
      await Promise.all([publisher.connect(), subscriber.connect()]);
      await subscriber.subscribe(CHANNEL);
    } catch (error) {
      channel.close();
      throw new Error(`REDIS_URL does not answer: ${(error as Error).message}`, { cause: error });
    }
    subscriber.on('message', (_channel: string, message: string) => {
      const announcement = channel.parseForeign(message);
      if (announcement) onRemote(announcement);
    });
    // Announcements sent while the connection was down are lost; rebuild once to catch up.
    subscriber.on('ready', () => onRemote({ kind: 'changed' }));
    return channel;
  }

  async publish(announcement: RemoteAnnouncement = { kind: 'changed' }): Promise<void> {
    const exhausted = announcement.kind === 'exhausted' ? announcement.campaignId : undefined;
    await this.publisher.publish(CHANNEL, JSON.stringify({ from: this.instanceId, exhausted }));
  }

  close(): void {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  /** Another instance's announcement; null for this instance's own. Unreadable: a change. */
  private parseForeign(message: string): RemoteAnnouncement | null {
    let parsed: { from?: unknown; exhausted?: unknown };
    try {
      parsed = JSON.parse(message) as { from?: unknown; exhausted?: unknown };
    } catch {
      return { kind: 'changed' };
    }
    if (parsed.from === this.instanceId) return null;
    return typeof parsed.exhausted === 'string'
      ? { kind: 'exhausted', campaignId: parsed.exhausted }
      : { kind: 'changed' };
  }
}
