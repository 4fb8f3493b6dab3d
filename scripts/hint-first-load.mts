// `npm run build` runs it after `next build`: see scripts/compile-hints.mts.
import { hintEntryScripts } from './compile-hints.mjs';

console.log(`Compile hint added to ${hintEntryScripts('.next')} entry scripts.`);
