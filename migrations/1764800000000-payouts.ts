import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Payouts to publishers: what was paid of their ledger earnings, voided but never edited. */
export class Payouts1764800000000 implements MigrationInterface {
  name = 'Payouts1764800000000';

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
    await queryRunner.createTable(
      new Table({
        name: 'payouts',
        columns: [
          { ...ref('id'), isPrimary: true },
          ref('publisher_id'),
          { name: 'amount_micros', type: 'bigint' },
          str('period_start', 10),
          str('period_end', 10),
          str('method', 16),
          str('reference', 100),
          ts('created_at'),
          ref('created_by'),
          ts('voided_at', true),
          ref('voided_by', true),
          str('void_reason', 500, true),
        ],
        indices: [
          {
            name: 'uq_payouts_publisher_reference',
            columnNames: ['publisher_id', 'reference'],
            isUnique: true,
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('payouts');
  }
}
