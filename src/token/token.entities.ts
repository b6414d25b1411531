/** Entities of the TokenModule (listed in src/database/entities.ts). */
export const tokenEntities: Function[] = [];
