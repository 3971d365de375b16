import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DashboardPage } from './dashboard-page.service';

/** `/dashboard`; `/dashboard/` and the assets are routes of DashboardModule's plugin. */
@ApiExcludeController()
@Controller('dashboard')
export class DashboardController {
  constructor(private readonly page: DashboardPage) {}

  @Get()
  showDashboard(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.page.send(request, reply);
  }
}
