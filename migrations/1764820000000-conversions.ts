import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * Conversions (issue 26): a campaign's click id parameter (on its landing URL) and
 * attribution window, advertisers' API keys (stored as SHA-256 hashes), and the conversions
 * they report, unique per advertiser and event id (their idempotency key).
 */
export class Conversions1764820000000 implements MigrationInterface {
  name = 'Conversions1764820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const ref = (name: string, isNullable = false) => ({
      name,
      type: 'varchar',
      length: '36',
      isNullable,
    });
    const ts = (name: string, isNullable = false) => ({
      name,
      type: 'datetime',
      precision: 3,
      isNullable,
    });
    const str = (name: string, length: number, isNullable = false) => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable,
    });
    await queryRunner.addColumns('campaigns', [
      new TableColumn({ ...str('click_id_param', 32, true), default: "'adl_click'" }),
      new TableColumn({ name: 'attribution_window_days', type: 'integer', default: 30 }),
    ]);
    await queryRunner.createTable(
      new Table({
        name: 'advertiser_api_keys',
        columns: [
          { ...ref('id'), isPrimary: true },
          ref('advertiser_id'),
          str('key_hash', 64),
          str('key_prefix', 16),
          str('label', 100, true),
          ts('created_at'),
          ts('revoked_at', true),
        ],
        indices: [
          { name: 'uq_advertiser_api_keys_hash', columnNames: ['key_hash'], isUnique: true },
          { name: 'idx_advertiser_api_keys_advertiser', columnNames: ['advertiser_id'] },
        ],
        foreignKeys: [
          {
            name: 'fk_advertiser_api_keys_advertiser',
            columnNames: ['advertiser_id'],
            referencedTableName: 'advertisers',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'conversions',
        columns: [
          { ...ref('id'), isPrimary: true },
          ref('advertiser_id'),
          ref('campaign_id'),
          ref('click_id'),
          ref('impression_id', true),
          ref('publisher_id', true),
          str('model_id', 64),
          str('event', 64),
          str('event_id', 128),
          { name: 'value_micros', type: 'bigint', isNullable: true },
          str('currency', 3),
          ts('occurred_at'),
          ts('click_at'),
          ts('received_at'),
          str('source', 8),
        ],
        indices: [
          {
            name: 'uq_conversions_advertiser_event',
            columnNames: ['advertiser_id', 'event_id'],
            isUnique: true,
          },
          {
            name: 'idx_conversions_campaign_occurred',
            columnNames: ['campaign_id', 'occurred_at'],
          },
          { name: 'idx_conversions_click', columnNames: ['click_id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('conversions');
    await queryRunner.dropTable('advertiser_api_keys');
    await queryRunner.dropColumns('campaigns', ['click_id_param', 'attribution_window_days']);
  }
}
