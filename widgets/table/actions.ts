import { accept, reject, withActions } from '@/lib/widgets/actions';
import { tableSchema, viewSchema } from './schema';

/** The table as the server runs it: its schema and the owner's sort and filter, kept. */
export const table = withActions(tableSchema, (action) => ({
  view: action({
    parameters: viewSchema,
    handle: (_ctx, view, data) =>
      view.sort && view.sort.column >= data.columns.length
        ? reject(`the table has no column ${view.sort.column}`)
        : accept({ ...data, view }),
  }),
}));
