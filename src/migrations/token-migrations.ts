/** Migrations of the TokenModule, in order. */
export const tokenMigrations: Function[] = [];
