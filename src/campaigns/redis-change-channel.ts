import type { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

const CHANNEL = 'adline:campaigns:changed';

/**
 * A Redis pub/sub channel on which instances announce "campaigns changed". Each instance
 * ignores its own announcements: it has already rebuilt before it publishes.
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
    onRemoteChange: () => void,
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
      if (channel.isForeign(message)) onRemoteChange();
    });
    // Announcements sent while the connection was down are lost; rebuild once to catch up.
    subscriber.on('ready', onRemoteChange);
    return channel;
  }

  async publish(): Promise<void> {
    await this.publisher.publish(CHANNEL, JSON.stringify({ from: this.instanceId }));
  }

  close(): void {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  private isForeign(message: string): boolean {
    try {
      return (JSON.parse(message) as { from?: unknown }).from !== this.instanceId;
    } catch {
      return true;
    }
  }
}
