import { sql } from 'drizzle-orm';

/**
 * A column's bare name, for the places raw SQL needs it unqualified (an insert's column list, an
 * update's `set`, `excluded.` and `claimed.` references), where Drizzle writes `"table"."column"`.
 */
export const columnName = (column: { name: string }) => sql.identifier(column.name);
