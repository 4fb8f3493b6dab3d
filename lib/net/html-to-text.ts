// node-html-parser: pure JavaScript (no native code, no network at run time), maintained, fast,
// and its `structuredText` already turns block elements into lines. A full DOM (linkedom) plus
// Readability would guess the main content better, at twice the dependencies; choosing <main>,
// a lone <article> or <body> and dropping scripts, styles and navigation is enough for a model.
import { type HTMLElement, parse } from 'node-html-parser';

// Never content: code, styling, navigation, forms and what the page itself hides.
const DROPPED =
  'script, style, noscript, template, svg, canvas, iframe, object, embed, nav, aside, form, ' +
  'button, select, dialog, [hidden], [aria-hidden="true"]';

/** The title and the readable main text of an HTML page, one line per block, spaces collapsed. */
export function htmlToText(html: string): { title: string; text: string } {
  const root = parse(html, { comment: false });
  const title = collapse(root.querySelector('title')?.text ?? '');
  for (const element of root.querySelectorAll(DROPPED)) element.remove();
  let main: HTMLElement | null = root.querySelector('main');
  const [article, ...moreArticles] = root.querySelectorAll('article');
  if (!main && article && moreArticles.length === 0) main = article;
  if (!main) {
    // The whole body: its site-wide header and footer are not the page's text.
    main = root.querySelector('body') ?? root;
    for (const element of main.querySelectorAll('header, footer')) element.remove();
  }
  const text = main.structuredText
    .split('\n')
    .map(collapse)
    .filter((line) => line !== '')
    .join('\n');
  return { title, text };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
