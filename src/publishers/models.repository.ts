import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { AiModel, type ModelDeactivator, type ModelStatus } from './entities/ai-model.entity';
import type { ControlColumns } from './model-controls';

/** What a publisher may change on a model besides its status. */
export interface ModelDetails {
  name?: string;
  description?: string | null;
  link?: string | null;
}

/** The ai_models table's queries. */
@Injectable()
export class ModelsRepository {
  constructor(@InjectRepository(AiModel) private readonly models: Repository<AiModel>) {}

  /** Stores a new model and returns it as stored. */
  insert(model: AiModel): Promise<AiModel> {
    return this.models.save(this.models.create(model));
  }

  findById(id: string): Promise<AiModel | null> {
    return this.models.findOneBy({ id });
  }

  /** A model known to exist (e.g. just written); its absence is an error, not a not-found. */
  getById(id: string): Promise<AiModel> {
    return this.models.findOneByOrFail({ id });
  }

  /** The model if this publisher owns it; null for an unknown id or another's model. */
  findOwned(publisherId: string, modelId: string): Promise<AiModel | null> {
    return this.models.findOneBy({ id: modelId, publisherId });
  }

  /** A publisher's models, oldest first (id breaks ties). */
  listOldestFirst(publisherId: string): Promise<AiModel[]> {
    return this.models.find({ where: { publisherId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async updateDetails(id: string, details: ModelDetails, at: Date): Promise<void> {
    await this.models.update({ id }, { ...details, updatedAt: at });
  }

  /** Replaces the model's controls, all columns at once. */
  async setControls(id: string, controls: ControlColumns, at: Date): Promise<void> {
    await this.models.update({ id }, { ...controls, updatedAt: at });
  }

  async setStatus(
    id: string,
    status: ModelStatus,
    deactivatedBy: ModelDeactivator | null,
    at: Date,
  ): Promise<void> {
    await this.models.update({ id }, { status, deactivatedBy, updatedAt: at });
  }

  /**
   * Locks the publisher's model for the rest of the caller's transaction by writing its row
   * (which locks it on MySQL and SQLite alike), so that what the transaction counts under it
   * cannot change meanwhile. False when the publisher has no model with this id.
   */
  async lockOwned(
    manager: EntityManager,
    publisherId: string,
    modelId: string,
    at: Date,
  ): Promise<boolean> {
    const locked = await manager.update(AiModel, { id: modelId, publisherId }, { updatedAt: at });
    return Boolean(locked.affected);
  }
}
