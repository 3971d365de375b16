import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';

// Column helpers local to this migration: a migration is frozen history and must not change
// when application code does.
const id = (): TableColumnOptions => ({
  name: 'id',
  type: 'varchar',
  length: '36',
  isPrimary: true,
});
const ref = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '36',
  isNullable,
});
const str = (name: string, length: number, isNullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable,
});
const big = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'bigint',
  isNullable,
});
const int = (name: string): TableColumnOptions => ({ name, type: 'integer' });
const ts = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'datetime',
  precision: 3,
  isNullable,
});
const json = (name: string): TableColumnOptions => ({ name, type: 'text' });

export class InitialSchema1763740000000 implements MigrationInterface {
  name = 'InitialSchema1763740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'publishers',
        columns: [
          id(),
          str('email', 254),
          str('name', 100),
          str('password_hash', 255, true),
          str('role', 16),
          str('status', 16),
          int('revenue_share_ppm'),
          ts('created_at'),
          ts('updated_at'),
        ],
        indices: [{ name: 'uq_publishers_email', columnNames: ['email'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'ai_models',
        columns: [
          id(),
          ref('publisher_id'),
          str('name', 100),
          str('description', 1000, true),
          str('link', 2048, true),
          str('status', 16),
          ts('created_at'),
          ts('updated_at'),
        ],
        indices: [{ name: 'idx_ai_models_publisher', columnNames: ['publisher_id'] }],
        foreignKeys: [
          {
            name: 'fk_ai_models_publisher',
            columnNames: ['publisher_id'],
            referencedTableName: 'publishers',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          id(),
          ref('model_id'),
          str('prefix', 16),
          str('key_hash', 64),
          str('label', 100, true),
          str('status', 16),
          ts('created_at'),
          ts('revoked_at', true),
          ts('last_used_at', true),
        ],
        indices: [
          { name: 'idx_api_keys_model', columnNames: ['model_id'] },
          { name: 'uq_api_keys_hash', columnNames: ['key_hash'], isUnique: true },
        ],
        foreignKeys: [
          {
            name: 'fk_api_keys_model',
            columnNames: ['model_id'],
            referencedTableName: 'ai_models',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'advertisers',
        columns: [
          id(),
          str('name', 200),
          str('contact_email', 254, true),
          str('status', 16),
          ts('created_at'),
          ts('updated_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'campaigns',
        columns: [
          id(),
          ref('advertiser_id'),
          str('name', 200),
          str('text', 1000),
          str('image_url', 2048, true),
          str('target_url', 2048),
          json('keywords'),
          json('countries'),
          json('devices'),
          big('bid_micros'),
          big('budget_total_micros', true),
          big('budget_daily_micros', true),
          big('spent_micros'),
          big('spent_today_micros'),
          str('spent_day', 10, true),
          ts('starts_at', true),
          ts('ends_at', true),
          str('status', 16),
          ts('created_at'),
          ts('updated_at'),
        ],
        indices: [
          { name: 'idx_campaigns_status', columnNames: ['status'] },
          { name: 'idx_campaigns_advertiser', columnNames: ['advertiser_id'] },
        ],
        foreignKeys: [
          {
            name: 'fk_campaigns_advertiser',
            columnNames: ['advertiser_id'],
            referencedTableName: 'advertisers',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'impressions',
        columns: [
          id(),
          ts('created_at'),
          ref('model_id'),
          ref('publisher_id'),
          ref('campaign_id'),
          big('bid_micros'),
          int('revenue_share_ppm'),
          str('country', 2, true),
          str('device', 16, true),
          str('user_location', 255, true),
          str('user_device_info', 512, true),
          str('keywords', 1000),
          { name: 'conversation', type: 'text', isNullable: true },
          ts('clicked_at', true),
        ],
        indices: [
          { name: 'idx_impressions_model_created', columnNames: ['model_id', 'created_at'] },
          { name: 'idx_impressions_campaign_created', columnNames: ['campaign_id', 'created_at'] },
          { name: 'idx_impressions_created', columnNames: ['created_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'clicks',
        columns: [
          id(),
          ts('created_at'),
          ref('impression_id', true),
          ref('campaign_id'),
          str('model_id', 64),
          ref('publisher_id', true),
          str('status', 16),
          str('invalid_reason', 32, true),
          big('cost_micros'),
          big('publisher_earnings_micros'),
          str('user_agent', 512, true),
        ],
        indices: [
          { name: 'idx_clicks_campaign_created', columnNames: ['campaign_id', 'created_at'] },
          { name: 'idx_clicks_model_created', columnNames: ['model_id', 'created_at'] },
          { name: 'idx_clicks_impression', columnNames: ['impression_id'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'ledger_entries',
        columns: [
          id(),
          ts('created_at'),
          ref('click_id'),
          str('account', 24),
          ref('campaign_id'),
          ref('publisher_id'),
          ref('model_id'),
          big('amount_micros'),
        ],
        indices: [
          { name: 'idx_ledger_publisher_created', columnNames: ['publisher_id', 'created_at'] },
          { name: 'idx_ledger_campaign_created', columnNames: ['campaign_id', 'created_at'] },
          { name: 'idx_ledger_click', columnNames: ['click_id'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'daily_stats',
        columns: [
          { ...str('day', 10), isPrimary: true },
          { ...ref('model_id'), isPrimary: true },
          { ...ref('campaign_id'), isPrimary: true },
          ref('publisher_id'),
          big('impressions'),
          big('clicks'),
          big('invalid_clicks'),
          big('spend_micros'),
          big('earnings_micros'),
        ],
        indices: [
          { name: 'idx_daily_stats_publisher_day', columnNames: ['publisher_id', 'day'] },
          { name: 'idx_daily_stats_campaign_day', columnNames: ['campaign_id', 'day'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'daily_stats',
      'ledger_entries',
      'clicks',
      'impressions',
      'campaigns',
      'advertisers',
      'api_keys',
      'ai_models',
      'publishers',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
