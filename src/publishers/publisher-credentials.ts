import type { ApiKeyKind, ApiKeyStatus } from './entities/api-key.entity';
import type { ModelDeactivator, ModelStatus } from './entities/ai-model.entity';
import type { ServingControls } from './model-controls';
import type { PublisherStatus } from './entities/publisher.entity';

/** Everything the fetch-ads path needs to know about the key it was called with. */
export interface KeyCredential {
  keyId: string;
  keyStatus: ApiKeyStatus;
  /** A test key's impressions and clicks are recorded apart and never billed. */
  keyKind: ApiKeyKind;
  modelId: string;
  modelStatus: ModelStatus;
  /** Who deactivated the model (null while it is active): its answer says what to do. */
  modelDeactivatedBy: ModelDeactivator | null;
  /** The model's publisher controls, ready to apply; a change to them renews the credential. */
  controls: ServingControls;
  publisherId: string;
  publisherStatus: PublisherStatus;
  revenueSharePpm: number;
}

/**
 * A change that makes cached credentials stale: a key revoked, a model's status or controls
 * changed, a publisher's status or share changed.
 */
export interface CredentialChange {
  kind: 'key' | 'model' | 'publisher';
  id: string;
}

export function affects(change: CredentialChange, credential: KeyCredential): boolean {
  switch (change.kind) {
    case 'key':
      return credential.keyId === change.id;
    case 'model':
      return credential.modelId === change.id;
    case 'publisher':
      return credential.publisherId === change.id;
  }
}
