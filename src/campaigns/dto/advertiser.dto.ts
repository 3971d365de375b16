import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsOmittable, IsRequired, IsText } from '@/common/validators';
import {
  ADVERTISER_STATUSES,
  type Advertiser,
  type AdvertiserStatus,
} from '../entities/advertiser.entity';
import { PageQueryDto } from '@/common/dto/page-query.dto';

const normaliseEmail = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

export class CreateAdvertiserDto {
  @ApiProperty({ example: 'Acme Outdoor GmbH', minLength: 1, maxLength: 200 })
  @IsText({ min: 1, max: 200 })
  @IsRequired()
  name: string;

  @ApiPropertyOptional({
    type: String,
    example: 'ads@acme.example',
    maxLength: 254,
    nullable: true,
  })
  @IsOptional()
  @Transform(normaliseEmail)
  @IsEmail({}, { message: '$property must be an email address' })
  @MaxLength(254)
  @IsString()
  contact_email?: string | null;
}

/** Every field is optional; `null` clears `contact_email`. */
export class UpdateAdvertiserDto {
  @ApiPropertyOptional({ example: 'Acme Outdoor GmbH', minLength: 1, maxLength: 200 })
  @IsOmittable()
  @IsText({ min: 1, max: 200 })
  name?: string;

  @ApiPropertyOptional({
    type: String,
    example: 'ads@acme.example',
    maxLength: 254,
    nullable: true,
  })
  @IsOptional()
  @Transform(normaliseEmail)
  @IsEmail({}, { message: '$property must be an email address' })
  @MaxLength(254)
  @IsString()
  contact_email?: string | null;

  @ApiPropertyOptional({
    enum: ADVERTISER_STATUSES,
    description:
      '`inactive`: none of the advertiser’s campaigns is served until it is `active` again.',
  })
  @IsOmittable()
  @IsIn(ADVERTISER_STATUSES)
  status?: AdvertiserStatus;
}

export class AdvertiserListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: ADVERTISER_STATUSES,
    description: 'Only advertisers in this status.',
  })
  @IsOptional()
  @IsIn(ADVERTISER_STATUSES)
  status?: AdvertiserStatus;
}

export class AdvertiserDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({ example: 'Acme Outdoor GmbH' }) name: string;
  @ApiProperty({ type: String, nullable: true, example: 'ads@acme.example' })
  contact_email: string | null;
  @ApiProperty({ enum: ADVERTISER_STATUSES }) status: AdvertiserStatus;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' }) created_at: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' }) updated_at: string;
}

export class AdvertiserPageDto {
  @ApiProperty({ type: [AdvertiserDto] }) items: AdvertiserDto[];
  @ApiProperty({ type: 'integer', example: 1 }) page: number;
  @ApiProperty({ type: 'integer', example: 50 }) per_page: number;
  @ApiProperty({ type: 'integer', description: 'Advertisers in all pages.', example: 1 })
  total: number;
}

/** The fields a client may see of an advertiser, listed one by one (never the entity). */
export function toAdvertiserDto(advertiser: Advertiser): AdvertiserDto {
  return {
    id: advertiser.id,
    name: advertiser.name,
    contact_email: advertiser.contactEmail,
    status: advertiser.status,
    created_at: advertiser.createdAt.toISOString(),
    updated_at: advertiser.updatedAt.toISOString(),
  };
}
