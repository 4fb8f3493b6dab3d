// `npm run build` runs it after `next build`: see scripts/compile-hints.mts.
import { hintScripts } from './compile-hints.mjs';

console.log(`Compile hint added to ${hintScripts('.next')} scripts.`);
