import { defineWidget } from '@/lib/widgets';

/** At most this many columns in one table. */
export const MAX_COLUMNS = 20;
/** At most this many rows in one table. */
export const MAX_ROWS = 500;

/** What `show_table` is given: the table itself. */
export const tableSpec = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 120, description: 'What the table shows.' },
    columns: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_COLUMNS,
      description: 'The columns, in order; each name distinct.',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 60 },
          type: {
            enum: ['string', 'number'],
            description: 'number: sorted numerically, aligned right.',
          },
        },
        required: ['name', 'type'],
        additionalProperties: false,
      },
    },
    rows: {
      type: 'array',
      maxItems: MAX_ROWS,
      description:
        'One array of cells per row, in column order: a string in a string column, a number ' +
        'in a number column, null for an empty cell.',
      items: {
        type: 'array',
        maxItems: MAX_COLUMNS,
        items: {
          anyOf: [{ type: 'string', maxLength: 500 }, { type: 'number' }, { type: 'null' }],
        },
      },
    },
  },
  required: ['title', 'columns', 'rows'],
  additionalProperties: false,
} as const;

/** How the owner left the table: kept with it, so a reload and the share link show the same. */
export const viewSchema = {
  type: 'object',
  properties: {
    sort: {
      type: 'object',
      properties: {
        column: { type: 'integer', minimum: 0 },
        direction: { enum: ['ascending', 'descending'] },
      },
      required: ['column', 'direction'],
      additionalProperties: false,
    },
    filter: { type: 'string', maxLength: 200 },
  },
  additionalProperties: false,
} as const;

/** A table the reader can sort and filter: opened by `show_table`. */
export const tableSchema = defineWidget({
  id: 'table',
  title: 'Table',
  container: 'modal',
  data: { ...tableSpec, properties: { ...tableSpec.properties, view: viewSchema } },
});
