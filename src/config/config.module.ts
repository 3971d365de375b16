import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { AppConfig } from './app-config';

/**
 * Provides the one validated `AppConfig` (tests pass their own, production reads the env) and
 * the `Clock` every module reads the time of money from.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useValue: config }, Clock],
      exports: [AppConfig, Clock],
    };
  }
}
