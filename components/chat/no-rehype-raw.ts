/**
 * What `rehype-raw` resolves to in Quanta's build (next.config.mjs): Streamdown imports it for
 * its default plugins, and with it parse5, an HTML parser the page would download and run for
 * nothing. Quanta never parses the model's HTML into elements (streamdown-markdown.tsx leaves
 * the plugin out), so this stands in for it, and says so if anything ever asks for it.
 */
export default function rehypeRaw(): never {
  throw new Error('Quanta does not render raw HTML: rehype-raw is left out of its build.');
}
