import { HttpStatus, Injectable } from '@nestjs/common';
import { ProblemException } from '@/common/problem';
import { AiModel, ModelStatus } from './entities/ai-model.entity';
import { toApiKeyDto } from './dto/api-key.dto';
import {
  CreatedModelDto,
  CreateModelDto,
  ModelDto,
  toModelDto,
  UpdateModelDto,
} from './dto/model.dto';
import type { PublisherModelListDto } from './dto/publisher-admin.dto';
import { type SetModelControlsDto, toModelControls } from './dto/model-controls.dto';
import { ModelsRepository } from './models.repository';
import { PublishersService } from './publishers.service';

/** A publisher's AI models, as the management API shows and changes them. */
@Injectable()
export class ModelsService {
  constructor(
    private readonly models: ModelsRepository,
    private readonly publishers: PublishersService,
  ) {}

  async list(publisherId: string): Promise<ModelDto[]> {
    const models = await this.models.listOldestFirst(publisherId);
    return models.map(toModelDto);
  }

  /** Any publisher's models, for an operator; 404 when no publisher has this id. */
  async listAsOperator(publisherId: string): Promise<PublisherModelListDto> {
    if (!(await this.publishers.findPublisher(publisherId))) {
      throw ProblemException.notFound('publisher_not_found', 'No publisher has this id.');
    }
    return { models: await this.list(publisherId) };
  }

  async get(publisherId: string, modelId: string): Promise<ModelDto> {
    return toModelDto(await this.owned(publisherId, modelId));
  }

  /** The publisher contract (docs/design.md): keys are issued when the publisher registers a model, so it comes with one. */
  async create(publisherId: string, input: CreateModelDto): Promise<CreatedModelDto> {
    const model = await this.publishers.createModel(publisherId, input);
    const { key, secret } = await this.publishers.createApiKey(model.id, 'default');
    return { ...toModelDto(model), api_key: { ...toApiKeyDto(key), key: secret } };
  }

  async update(publisherId: string, modelId: string, changes: UpdateModelDto): Promise<ModelDto> {
    const model = await this.owned(publisherId, modelId);
    const statusChanges = changes.status !== undefined && changes.status !== model.status;
    // An operator's deactivation (abuse, a complaint) is not the publisher's to undo.
    if (statusChanges && model.deactivatedBy === 'operator') {
      throw new ProblemException(
        HttpStatus.FORBIDDEN,
        'model_locked',
        'An operator deactivated this model; contact support to reactivate it.',
      );
    }
    const fields = {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.link !== undefined ? { link: changes.link } : {}),
    };
    if (Object.keys(fields).length > 0) {
      await this.models.updateDetails(model.id, fields, new Date());
    }
    if (statusChanges) {
      await this.publishers.setModelStatus(model.id, changes.status as ModelStatus, 'publisher');
    }
    return this.get(publisherId, modelId);
  }

  /** Replaces the controls of one of the publisher's models; fetch-ads applies them at once. */
  async setControls(
    publisherId: string,
    modelId: string,
    controls: SetModelControlsDto,
  ): Promise<ModelDto> {
    const model = await this.owned(publisherId, modelId);
    await this.publishers.setModelControls(model.id, toModelControls(controls));
    return this.get(publisherId, modelId);
  }

  /** An operator's status change, on any publisher's model. */
  async setStatusAsOperator(modelId: string, status: ModelStatus): Promise<ModelDto> {
    const model = await this.models.findById(modelId);
    if (!model) throw ProblemException.notFound('model_not_found', 'No AI model has this id.');
    await this.publishers.setModelStatus(model.id, status, 'operator');
    return toModelDto(await this.models.getById(model.id));
  }

  /** The model if this publisher owns it; any other id is 404, as if it did not exist. */
  async owned(publisherId: string, modelId: string): Promise<AiModel> {
    const model = await this.publishers.findOwnedModel(publisherId, modelId);
    if (!model) throw modelNotFound();
    return model;
  }
}

export const modelNotFound = (): ProblemException =>
  ProblemException.notFound('model_not_found', 'No AI model of yours has this id.');
