// The baseline app: built and started by bench/run.mts with the repository's own `next`, whose
// node_modules it shares (hence the root two folders up).
import { resolve } from 'node:path';

export default { turbopack: { root: resolve(import.meta.dirname, '../..') } };
