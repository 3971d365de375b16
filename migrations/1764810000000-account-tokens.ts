import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * Account tokens (password reset, e-mail verification), stored only as SHA-256 hashes, and
 * when a publisher's e-mail address was verified. Existing accounts start unverified (null).
 */
export class AccountTokens1764810000000 implements MigrationInterface {
  name = 'AccountTokens1764810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'publishers',
      new TableColumn({
        name: 'email_verified_at',
        type: 'datetime',
        precision: 3,
        isNullable: true,
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'account_tokens',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'publisher_id', type: 'varchar', length: '36' },
          { name: 'purpose', type: 'varchar', length: '24' },
          { name: 'token_hash', type: 'varchar', length: '64' },
          { name: 'expires_at', type: 'datetime', precision: 3 },
          { name: 'used_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          { name: 'uq_account_tokens_hash', columnNames: ['token_hash'], isUnique: true },
          { name: 'idx_account_tokens_publisher', columnNames: ['publisher_id'] },
        ],
        foreignKeys: [
          {
            name: 'fk_account_tokens_publisher',
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
    await queryRunner.dropTable('account_tokens');
    await queryRunner.dropColumn('publishers', 'email_verified_at');
  }
}
