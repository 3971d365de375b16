import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Unbilled clicks rolled up per UTC day, model, campaign and reason, so reports can break
 * `daily_stats.invalid_clicks` down by reason after the raw clicks are purged.
 *
 * Existing roll-ups are backfilled: from the raw clicks still kept (counted, as the click
 * recorder counts them, for their impression's campaign and model), and whatever the purge
 * already took as `unrecorded`, so every row's reasons add up to its `invalid_clicks`.
 */
export class UnbilledClickReasons1764000100000 implements MigrationInterface {
  name = 'UnbilledClickReasons1764000100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const ref = (name: string, isPrimary = false) => ({
      name,
      type: 'varchar',
      length: '36',
      isPrimary,
    });
    await queryRunner.createTable(
      new Table({
        name: 'daily_unbilled_clicks',
        columns: [
          { name: 'day', type: 'varchar', length: '10', isPrimary: true },
          ref('model_id', true),
          ref('campaign_id', true),
          { name: 'reason', type: 'varchar', length: '32', isPrimary: true },
          ref('publisher_id'),
          { name: 'clicks', type: 'bigint' },
        ],
        indices: [
          { name: 'idx_daily_unbilled_publisher_day', columnNames: ['publisher_id', 'day'] },
          { name: 'idx_daily_unbilled_campaign_day', columnNames: ['campaign_id', 'day'] },
        ],
      }),
    );

    const mysql = ['mysql', 'mariadb'].includes(queryRunner.connection.options.type);
    // created_at holds UTC on both (`YYYY-MM-DD HH:MM:SS.mmm` text on SQLite).
    const day = mysql ? "DATE_FORMAT(c.created_at, '%Y-%m-%d')" : 'substr(c.created_at, 1, 10)';
    await queryRunner.query(
      `INSERT INTO daily_unbilled_clicks (day, model_id, campaign_id, reason, publisher_id, clicks)
       SELECT ${day}, i.model_id, i.campaign_id, COALESCE(c.invalid_reason, 'over_budget'),
              i.publisher_id, COUNT(*)
         FROM clicks c JOIN impressions i ON i.id = c.impression_id
        WHERE c.status <> 'billed'
        GROUP BY ${day}, i.model_id, i.campaign_id, COALESCE(c.invalid_reason, 'over_budget'),
                 i.publisher_id`,
    );
    const explained = `COALESCE((SELECT SUM(u.clicks) FROM daily_unbilled_clicks u
        WHERE u.day = s.day AND u.model_id = s.model_id AND u.campaign_id = s.campaign_id), 0)`;
    await queryRunner.query(
      `INSERT INTO daily_unbilled_clicks (day, model_id, campaign_id, reason, publisher_id, clicks)
       SELECT s.day, s.model_id, s.campaign_id, 'unrecorded', s.publisher_id,
              s.invalid_clicks - ${explained}
         FROM daily_stats s
        WHERE s.invalid_clicks > ${explained}`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('daily_unbilled_clicks');
  }
}
