import { makePgliteTemplate } from '../../lib/db/client';

// Every test's new PGlite folder is unpacked from the template, as the app's are: one initdb
// for the whole run instead of one per folder. Made afresh, so it matches this checkout.
export default async function setup() {
  await makePgliteTemplate();
}
