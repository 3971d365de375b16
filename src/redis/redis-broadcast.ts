import type { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

/** A message of another instance: its JSON fields, or none when it could not be read. */
export type BroadcastMessage = Record<string, unknown>;

export interface BroadcastHandlers {
  /** Another instance's message (never this instance's own). */
  onMessage(message: BroadcastMessage): void;
  /** The subscription came back after an outage: messages sent meanwhile were lost. */
  onReconnect(): void;
}

/**
 * One Redis pub/sub channel on which instances announce changes to each other's caches.
 * Each message carries its sender's id, so an instance ignores its own announcements: it
 * has already acted on them before it publishes. An outage is logged once, and its end too.
 */
export class RedisBroadcast {
  private readonly instanceId = randomUUID();
  private down = false;

  private constructor(
    private readonly channel: string,
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly logger: Logger,
  ) {}

  /** Connects and subscribes; fails (and closes) when the server does not answer. */
  static async open(
    url: string,
    channelName: string,
    handlers: BroadcastHandlers,
    logger: Logger,
  ): Promise<RedisBroadcast> {
    // Without an offline queue, and with a deadline, a publish during an outage fails soon
    // instead of holding the request that made the change.
    const publisher = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
    });
    // We subscribe again ourselves after a reconnection: ioredis' own resubscription has no
    // catch, so a connection closed before its reply (at shutdown) was an unhandled rejection.
    const subscriber = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      autoResubscribe: false,
    });
    const broadcast = new RedisBroadcast(channelName, publisher, subscriber, logger);
    for (const connection of [publisher, subscriber]) {
      connection.on('error', (error: Error) => broadcast.noteOutage(error.message));
      connection.on('ready', () => broadcast.noteRecovery());
    }
    try {
      await Promise.all([publisher.connect(), subscriber.connect()]);
      await subscriber.subscribe(channelName);
    } catch (error) {
      broadcast.close();
      throw new Error(`REDIS_URL does not answer: ${(error as Error).message}`, { cause: error });
    }
    subscriber.on('message', (_channel: string, message: string) => {
      const parsed = broadcast.parseForeign(message);
      if (parsed) handlers.onMessage(parsed);
    });
    subscriber.on('ready', () => {
      subscriber
        .subscribe(channelName)
        .catch((error: Error) => broadcast.noteOutage(error.message));
      handlers.onReconnect();
    });
    return broadcast;
  }

  async publish(message: BroadcastMessage): Promise<void> {
    await this.publisher.publish(
      this.channel,
      JSON.stringify({ ...message, from: this.instanceId }),
    );
  }

  close(): void {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  /** Logs the first error of an outage only: ioredis reports each reconnection attempt. */
  noteOutage(reason: string): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn(`redis (${this.channel}): ${reason}; other instances learn of changes late`);
  }

  private noteRecovery(): void {
    if (!this.down || this.publisher.status !== 'ready' || this.subscriber.status !== 'ready') {
      return;
    }
    this.down = false;
    this.logger.log(`redis (${this.channel}): connected again`);
  }

  /** Another instance's message; null for this instance's own. Unreadable: no fields. */
  private parseForeign(message: string): BroadcastMessage | null {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return {};
    }
    if (typeof parsed !== 'object' || parsed === null) return {};
    const fields = parsed as BroadcastMessage;
    return fields.from === this.instanceId ? null : fields;
  }
}
