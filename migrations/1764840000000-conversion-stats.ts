import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Conversions rolled up per basis (`click`: the click's UTC day; `arrival`: the day the
 * conversion came in), UTC day, model, campaign and event, for reports. Conversions already
 * stored are counted on both bases, their value only when in USD, as new ones are.
 */
export class ConversionStats1764840000000 implements MigrationInterface {
  name = 'ConversionStats1764840000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const key = (name: string, length: number) => ({
      name,
      type: 'varchar',
      length: String(length),
      isPrimary: true,
    });
    await queryRunner.createTable(
      new Table({
        name: 'daily_conversions',
        columns: [
          key('basis', 8),
          key('day', 10),
          key('model_id', 64),
          key('campaign_id', 36),
          key('event', 64),
          { name: 'publisher_id', type: 'varchar', length: '36' },
          { name: 'conversions', type: 'bigint' },
          { name: 'value_micros', type: 'bigint' },
        ],
        indices: [
          { name: 'idx_daily_conversions_publisher_day', columnNames: ['publisher_id', 'day'] },
          { name: 'idx_daily_conversions_campaign_day', columnNames: ['campaign_id', 'day'] },
        ],
      }),
    );

    const mysql = ['mysql', 'mariadb'].includes(queryRunner.connection.options.type);
    for (const [basis, column] of [
      ['click', 'click_at'],
      ['arrival', 'received_at'],
    ]) {
      // Timestamps hold UTC on both (`YYYY-MM-DD HH:MM:SS.mmm` text on SQLite).
      const day = mysql ? `DATE_FORMAT(${column}, '%Y-%m-%d')` : `substr(${column}, 1, 10)`;
      await queryRunner.query(
        `INSERT INTO daily_conversions
           (basis, day, model_id, campaign_id, event, publisher_id, conversions, value_micros)
         SELECT '${basis}', ${day}, model_id, campaign_id, event, MAX(COALESCE(publisher_id, '')),
                COUNT(*), SUM(CASE WHEN currency = 'USD' THEN COALESCE(value_micros, 0) ELSE 0 END)
           FROM conversions
          GROUP BY ${day}, model_id, campaign_id, event`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('daily_conversions');
  }
}
