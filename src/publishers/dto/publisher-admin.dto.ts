import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PageQueryDto } from '@/common/dto/page-query.dto';
import { IsOmittable, IsRevenueShare } from '@/common/validators';
import { PUBLISHER_STATUSES, type PublisherStatus } from '../entities/publisher.entity';
import { PublisherDto } from './publisher.dto';

/** `page` and `per_page`, as every admin list takes them. */
export class PublisherListQueryDto extends PageQueryDto {}

export class PublisherPageDto {
  @ApiProperty({ type: [PublisherDto] }) items: PublisherDto[];
  @ApiProperty({ type: 'integer', example: 1 }) page: number;
  @ApiProperty({ type: 'integer', example: 50 }) per_page: number;
  @ApiProperty({ type: 'integer', description: 'Publishers in all pages.', example: 1 })
  total: number;
}

export class UpdatePublisherDto {
  @ApiPropertyOptional({
    description:
      "The publisher's share of each billed click, a fraction from 0 to 1 with at most 6 decimals. Applies to impressions served from now on.",
    example: 0.75,
    minimum: 0,
    maximum: 1,
  })
  @IsOmittable()
  @IsRevenueShare()
  revenue_share?: number;

  @ApiPropertyOptional({
    enum: PUBLISHER_STATUSES,
    description:
      '`suspended`: the publisher can no longer sign in or use the API, and its keys answer 404 `model_inactive` at once; `active` restores both.',
  })
  @IsOmittable()
  @IsIn(PUBLISHER_STATUSES)
  status?: PublisherStatus;
}
