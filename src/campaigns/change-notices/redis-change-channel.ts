import type { Logger } from '@nestjs/common';
import { RedisBroadcast } from '@/redis/redis-broadcast';

const CHANNEL = 'adline:campaigns:changed';

/** What another instance announced: campaigns changed, or one campaign ran out of budget. */
export type RemoteAnnouncement = { kind: 'changed' } | { kind: 'exhausted'; campaignId: string };

/**
 * The Redis channel on which instances announce "campaigns changed" or "this campaign ran
 * out of budget". A message that names no campaign (or cannot be read) means "changed".
 */
export class RedisChangeChannel {
  private constructor(private readonly broadcast: RedisBroadcast) {}

  /** Connects and subscribes; fails (and closes) when the server does not answer. */
  static async open(
    url: string,
    onRemote: (announcement: RemoteAnnouncement) => void,
    logger: Logger,
  ): Promise<RedisChangeChannel> {
    const broadcast = await RedisBroadcast.open(
      url,
      CHANNEL,
      {
        onMessage: ({ exhausted }) =>
          onRemote(
            typeof exhausted === 'string'
              ? { kind: 'exhausted', campaignId: exhausted }
              : { kind: 'changed' },
          ),
        // Announcements sent while the connection was down are lost; rebuild once to catch up.
        onReconnect: () => onRemote({ kind: 'changed' }),
      },
      logger,
    );
    return new RedisChangeChannel(broadcast);
  }

  async publish(announcement: RemoteAnnouncement = { kind: 'changed' }): Promise<void> {
    const exhausted = announcement.kind === 'exhausted' ? announcement.campaignId : undefined;
    await this.broadcast.publish({ exhausted });
  }

  close(): void {
    this.broadcast.close();
  }
}
