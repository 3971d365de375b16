import { Column, ColumnOptions, PrimaryColumn, ValueTransformer } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';

/** Ids are time-ordered UUIDs made by the app, so batched inserts need no id round trip. */
export const newId = (): string => uuidv7();

/** MySQL returns BIGINT and SUM() as strings; every amount inside the app is a plain integer. */
export const integerTransformer: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: unknown) => (value === null || value === undefined ? value : Number(value)),
};

export const IdColumn = (): PropertyDecorator => PrimaryColumn({ type: 'varchar', length: 36 });

export const RefColumn = (name: string, options: ColumnOptions = {}): PropertyDecorator =>
  Column({ name, type: 'varchar', length: 36, ...options });

/** Money in integer micros (1 unit = 1,000,000 micros). */
export const MicrosColumn = (name: string, options: ColumnOptions = {}): PropertyDecorator =>
  Column({ name, type: 'bigint', transformer: integerTransformer, ...options });

/** UTC instants with millisecond precision, on MySQL and SQLite alike. */
export const TimestampColumn = (name: string, options: ColumnOptions = {}): PropertyDecorator =>
  Column({ name, type: 'datetime', precision: 3, ...options });
