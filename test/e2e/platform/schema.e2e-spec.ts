import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '@/database/data-source-options';
import { ENTITIES } from '@/entities';
import { createTestDatabase, TestDatabase, testDatabaseKind } from '@test/support/test-database';

describe(`schema (${testDatabaseKind()})`, () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = new DataSource(buildDataSourceOptions(db.config, ENTITIES));
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  it('the migrations create exactly the schema the entities describe', async () => {
    const applied = await dataSource.runMigrations();
    expect(applied.length).toBeGreaterThan(0);
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('every migration can be reverted', async () => {
    for (let i = 0; i < dataSource.migrations.length; i++) await dataSource.undoLastMigration();
    const tables = await dataSource.createQueryRunner().getTables(['publishers', 'impressions']);
    expect(tables).toEqual([]);
  });
});
