import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '@/config/app-config';
import { buildDataSourceOptions } from './data-source-options';

/** One DataSource for the app; pending migrations run at start-up. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config.database),
        migrationsRun: true,
      }),
    }),
  ],
})
export class DatabaseModule {}
