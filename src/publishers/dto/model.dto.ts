import { CreatedApiKeyDto } from './api-key.dto';
import { ModelControlsDto, toModelControlsDto } from './model-controls.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsHttpUrl, IsOmittable, IsRequired, IsText } from '@/common/validators';
import {
  MODEL_DEACTIVATORS,
  MODEL_STATUSES,
  type AiModel,
  type ModelDeactivator,
  type ModelStatus,
} from '../entities/ai-model.entity';
import { controlsOf } from '../model-controls';

export class CreateModelDto {
  @ApiProperty({ example: 'Helpful Assistant', minLength: 1, maxLength: 100 })
  @IsText({ min: 1, max: 100 })
  @IsRequired()
  name: string;

  @ApiPropertyOptional({
    type: String,
    example: 'A general-purpose assistant for developers.',
    maxLength: 1000,
    nullable: true,
  })
  @IsOptional()
  @IsText({ max: 1000 })
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    description: 'Where people meet the model: an http(s) URL.',
    example: 'https://assistant.example.com',
    maxLength: 2048,
    nullable: true,
  })
  @IsOptional()
  @IsHttpUrl()
  link?: string | null;
}

/** Every field is optional; `null` clears `description` or `link`. */
export class UpdateModelDto {
  @ApiPropertyOptional({ example: 'Helpful Assistant 2', minLength: 1, maxLength: 100 })
  @IsOmittable()
  @IsText({ min: 1, max: 100 })
  name?: string;

  @ApiPropertyOptional({ type: String, maxLength: 1000, nullable: true })
  @IsOptional()
  @IsText({ max: 1000 })
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'https://assistant.example.com',
    maxLength: 2048,
    nullable: true,
  })
  @IsOptional()
  @IsHttpUrl()
  link?: string | null;

  @ApiPropertyOptional({
    enum: MODEL_STATUSES,
    description:
      "`deactivated`: the model's keys answer 404 `model_inactive` at once; `active` restores them (not when an operator deactivated the model).",
  })
  @IsOmittable()
  @IsIn(MODEL_STATUSES)
  status?: ModelStatus;
}

/** An operator changes only the status of a model. */
export class OperatorModelStatusDto {
  @ApiProperty({ enum: MODEL_STATUSES })
  @IsIn(MODEL_STATUSES)
  @IsRequired()
  status: ModelStatus;
}

export class ModelDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({ example: 'Helpful Assistant' }) name: string;
  @ApiProperty({ type: String, nullable: true, example: 'A general-purpose assistant.' })
  description: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://assistant.example.com',
  })
  link: string | null;
  @ApiProperty({ enum: MODEL_STATUSES }) status: ModelStatus;
  @ApiProperty({
    enum: MODEL_DEACTIVATORS,
    nullable: true,
    description:
      'Who deactivated the model; only an operator can reactivate a model an operator deactivated.',
  })
  deactivated_by: ModelDeactivator | null;
  @ApiProperty({
    type: ModelControlsDto,
    description:
      'What ads the model is served: blocked categories, advertisers and keywords, a relevance floor and a frequency cap. Set with `PUT /api/models/{id}/controls`.',
  })
  controls: ModelControlsDto;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' }) created_at: string;
}

export class CreatedModelDto extends ModelDto {
  @ApiProperty({
    type: CreatedApiKeyDto,
    description: "The model's first API key; its secret `key` is shown only in this response.",
  })
  api_key: CreatedApiKeyDto;
}

/** The fields a client may see of a model, listed one by one (never the entity). */
export function toModelDto(model: AiModel): ModelDto {
  return {
    id: model.id,
    name: model.name,
    description: model.description,
    link: model.link,
    status: model.status,
    deactivated_by: model.status === 'deactivated' ? (model.deactivatedBy ?? 'publisher') : null,
    controls: toModelControlsDto(controlsOf(model)),
    created_at: model.createdAt.toISOString(),
  };
}
