import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { PublisherDto } from './dto/publisher.dto';
import { PublisherAccountsService } from './publisher-accounts.service';

@ApiTags('publisher')
@Controller('api/publisher')
@Authenticated()
export class PublisherController {
  constructor(private readonly accounts: PublisherAccountsService) {}

  @Get()
  @ApiOperation({
    summary: 'The signed-in publisher, with its revenue share',
    description: 'The account of the session or bearer token: name, email, role and status.',
  })
  @ApiOkResponse({ type: PublisherDto })
  getPublisher(@CurrentPrincipal() principal: Principal): Promise<PublisherDto> {
    return this.accounts.profile(principal.publisherId);
  }
}
