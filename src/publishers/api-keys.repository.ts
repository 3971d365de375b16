import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, Repository } from 'typeorm';
import { ApiKey } from './entities/api-key.entity';

/** The api_keys table's queries. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

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
