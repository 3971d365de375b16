import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, IsNull, LessThan, type Repository } from 'typeorm';
import { transactionWithRetry } from '@/database/sql';
import { ApiKey } from './entities/api-key.entity';

/** The api_keys table's queries. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

  /**
   * Runs `work` in one transaction, retried whole on contention; `work` passes the manager it
   * is given to the repository methods that must run inside it.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return transactionWithRetry(this.keys.manager, work);
  }

  /** Stores a new key and returns it as stored, in the caller's transaction if given one. */
  insert(key: ApiKey, manager: EntityManager = this.keys.manager): Promise<ApiKey> {
    return manager.save(manager.create(ApiKey, key));
  }

  /** A model's keys, oldest first (id breaks ties). */
  listOldestFirst(modelId: string): Promise<ApiKey[]> {
    return this.keys.find({ where: { modelId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The key if it belongs to this model; null otherwise. */
  findOfModel(modelId: string, keyId: string): Promise<ApiKey | null> {
    return this.keys.findOneBy({ id: keyId, modelId });
  }

  /** The key with this secret's hash, with its model and the model's publisher. */
  findByHashWithOwners(keyHash: string): Promise<ApiKey | null> {
    return this.keys.findOne({ where: { keyHash }, relations: { model: { publisher: true } } });
  }

  /** The model's active keys, counted in the caller's transaction. */
  countActive(manager: EntityManager, modelId: string): Promise<number> {
    return manager.countBy(ApiKey, { modelId, status: 'active' });
  }

  async revoke(keyId: string, at: Date): Promise<void> {
    await this.keys.update({ id: keyId }, { status: 'revoked', revokedAt: at });
  }

  /**
   * Sets the key's last use to `at`, unless a later one is stored: the time never moves
   * backwards, so several instances writing in any order agree on the latest use.
   */
  async recordLastUse(keyId: string, at: Date): Promise<void> {
    await this.keys.update(
      [
        { id: keyId, lastUsedAt: IsNull() },
        { id: keyId, lastUsedAt: LessThan(at) },
      ],
      { lastUsedAt: at },
    );
  }
}
