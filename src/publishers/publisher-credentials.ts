import type { ApiKeyStatus } from './entities/api-key.entity';
import type { ModelStatus } from './entities/ai-model.entity';
import type { PublisherStatus } from './entities/publisher.entity';

/** Everything the fetch-ads path needs to know about the key it was called with. */
export interface KeyCredential {
  keyId: string;
  keyStatus: ApiKeyStatus;
  modelId: string;
  modelStatus: ModelStatus;
  publisherId: string;
  publisherStatus: PublisherStatus;
  revenueSharePpm: number;
}
