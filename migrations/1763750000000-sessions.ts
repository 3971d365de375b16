import { MigrationInterface, QueryRunner, Table } from 'typeorm';

export class Sessions1763750000000 implements MigrationInterface {
  name = 'Sessions1763750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'publisher_id', type: 'varchar', length: '36' },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'expires_at', type: 'datetime', precision: 3 },
          { name: 'revoked_at', type: 'datetime', precision: 3, isNullable: true },
        ],
        indices: [{ name: 'idx_sessions_publisher', columnNames: ['publisher_id'] }],
        foreignKeys: [
          {
            name: 'fk_sessions_publisher',
            columnNames: ['publisher_id'],
            referencedTableName: 'publishers',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sessions');
  }
}
