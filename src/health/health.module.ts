import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { RequestDrain } from './request-drain.service';

@Module({ controllers: [HealthController], providers: [RequestDrain] })
export class HealthModule {}
