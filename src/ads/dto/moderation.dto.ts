import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsOptional, ValidateBy } from 'class-validator';
import { IsRequired } from '@/common/validators';

/** At most this many categories: more than any moderation model reports (OpenAI's has 13). */
export const MAX_MODERATION_CATEGORIES = 100;

/** An object of at most MAX_MODERATION_CATEGORIES values, each of `type`. */
export function isRecordOf(value: unknown, type: 'boolean' | 'number'): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const values = Object.values(value);
  return (
    values.length <= MAX_MODERATION_CATEGORIES &&
    values.every((v) => typeof v === type && (type !== 'number' || Number.isFinite(v)))
  );
}

function IsRecordOf(type: 'boolean' | 'number'): PropertyDecorator {
  return ValidateBy({
    name: 'isRecordOf',
    validator: {
      validate: (value: unknown) => isRecordOf(value, type),
      defaultMessage: () =>
        `$property must be an object of at most ${MAX_MODERATION_CATEGORIES} ${type} values`,
    },
  });
}

/**
 * The publisher's own moderation verdict on the turn, in the shape of one result of
 * OpenAI's moderation endpoint (`results[0]`), which other moderation tools emit too.
 * Other fields of such a result are ignored.
 */
export class ModerationDto {
  @ApiProperty({
    description:
      "Whether the publisher's moderation model flagged the turn. `true` answers 404 `no_matching_ad` with reason `sensitive_topic`.",
    example: false,
  })
  @IsBoolean()
  @IsRequired()
  flagged: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'boolean' },
    maxProperties: MAX_MODERATION_CATEGORIES,
    description:
      "The model's categories, as it names them (e.g. OpenAI's `self-harm/intent`, `violence`): any `true` is taken as flagged, even when `flagged` is `false`.",
    example: { 'self-harm': false, 'self-harm/intent': false, violence: false },
  })
  @IsRecordOf('boolean')
  @IsObject()
  @IsOptional()
  categories?: Record<string, boolean>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number' },
    maxProperties: MAX_MODERATION_CATEGORIES,
    description: "The model's score per category, accepted for completeness and not used.",
    example: { 'self-harm': 0.0012, violence: 0.0004 },
  })
  @IsRecordOf('number')
  @IsObject()
  @IsOptional()
  category_scores?: Record<string, number>;
}
