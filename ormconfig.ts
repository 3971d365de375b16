import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfig } from '@/config/app-config';
import { buildDataSourceOptions } from '@/database/data-source-options';
import { ENTITIES } from '@/entities';

/** The TypeORM CLI's DataSource (`npm run migration:run`), configured like the app. */
export default new DataSource(
  buildDataSourceOptions(AppConfig.fromEnvironment().database, ENTITIES),
);
