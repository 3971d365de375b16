import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The servability version: one row of counters that every change which can alter the ad
 * index's snapshot adds to, so that the index's periodic probe reads one row instead of
 * scanning the campaigns table. Starts at zero: a probe is only ever compared with another.
 */
export class ServabilityVersion1764700000000 implements MigrationInterface {
  name = 'ServabilityVersion1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'servability_version',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'change_count', type: 'bigint' },
          { name: 'exhaustion_count', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.query(
      'INSERT INTO servability_version (id, change_count, exhaustion_count) VALUES (1, 0, 0)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('servability_version');
  }
}
