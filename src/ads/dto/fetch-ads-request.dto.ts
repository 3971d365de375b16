import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsRequired } from '@/common/validators';

/** Body of `POST /api/fetch-ads` (docs/design.md, the publisher contract). Unknown fields are ignored. */
export class FetchAdsRequestDto {
  @ApiProperty({
    description:
      'Recent conversation or query from the user. Stored (cut to CONVERSATION_MAX_CHARS) for analytics; its words may add relevance among matching campaigns.',
    example: 'Which laptop is best for machine learning on a budget?',
  })
  @IsString()
  @Matches(/\S/, { message: 'conversation should not be empty' })
  @IsRequired()
  conversation: string;

  @ApiProperty({
    description:
      'Comma-separated keywords extracted from the conversation; used to match campaigns.',
    example: 'laptop, machine learning, gpu',
    maxLength: 2000,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  @Matches(/[^,\s]/, { message: 'context_keywords should contain at least one keyword' })
  @IsRequired()
  context_keywords: string;

  @ApiPropertyOptional({
    description: 'Country of the user, alone or after a city: "DE", "Germany", "Berlin, Germany".',
    example: 'Berlin, Germany',
    maxLength: 255,
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  user_location?: string;

  @ApiPropertyOptional({
    description: 'Device of the user: a word (mobile, tablet, desktop) or a user-agent string.',
    example:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    maxLength: 512,
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  user_device_info?: string;
}
