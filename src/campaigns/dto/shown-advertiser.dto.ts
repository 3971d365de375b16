import { ApiProperty } from '@nestjs/swagger';
import type { Advertiser } from '../entities/advertiser.entity';

/** An advertiser whose ads were served to the publisher's models: what a block needs. */
export class ShownAdvertiserDto {
  @ApiProperty({
    format: 'uuid',
    description: 'What `blocked_advertisers` of a model’s controls holds.',
    example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e',
  })
  id: string;
  @ApiProperty({ example: 'Acme Outdoor GmbH' }) name: string;
}

/** The fields a publisher may see of an advertiser: its id and name, nothing else. */
export function toShownAdvertiserDto(
  advertiser: Pick<Advertiser, 'id' | 'name'>,
): ShownAdvertiserDto {
  return { id: advertiser.id, name: advertiser.name };
}
