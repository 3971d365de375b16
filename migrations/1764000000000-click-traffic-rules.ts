import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/**
 * Invalid-traffic rules for clicks: which API key served an impression (a click after the
 * key is revoked is not billed), and a keyed hash of the clicking IP for the per-IP limits.
 */
export class ClickTrafficRules1764000000000 implements MigrationInterface {
  name = 'ClickTrafficRules1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'impressions',
      new TableColumn({ name: 'api_key_id', type: 'varchar', length: '36', isNullable: true }),
    );
    await queryRunner.addColumn(
      'clicks',
      new TableColumn({ name: 'ip_hash', type: 'varchar', length: '64', isNullable: true }),
    );
    await queryRunner.createIndex(
      'clicks',
      new TableIndex({ name: 'idx_clicks_ip_created', columnNames: ['ip_hash', 'created_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('clicks', 'idx_clicks_ip_created');
    await queryRunner.dropColumn('clicks', 'ip_hash');
    await queryRunner.dropColumn('impressions', 'api_key_id');
  }
}
