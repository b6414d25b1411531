import type { ValueTransformer } from 'typeorm';

/**
 * A bigint column (epoch milliseconds, byte sizes): PostgreSQL returns bigint as a string, SQLite as a number; both become a
 * JS number (safe up to year 287396).
 */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};
