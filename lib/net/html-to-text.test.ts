import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-to-text';

const PAGE = `<!doctype html>
<html>
<head>
  <title>  A   test
    page </title>
  <style>body { color: red }</style>
  <script>var secret = "script text";</script>
</head>
<body>
  <header>Site header</header>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <main>
    <h1>Main   heading</h1>
    <p>First paragraph with <b>bold</b>
       words &amp; an entity.</p>
    <ul><li>one</li><li>two</li></ul>
    <script>document.write("inline")</script>
    <aside>Related links</aside>
  </main>
  <footer>Copyright footer</footer>
</body>
</html>`;

describe('htmlToText', () => {
  it('keeps the title and the main text, without scripts, styles or navigation', () => {
    expect(htmlToText(PAGE)).toEqual({
      title: 'A test page',
      text: 'Main heading\nFirst paragraph with bold words & an entity.\none\ntwo',
    });
  });

  it('falls back to the body without its site header and footer', () => {
    const html =
      '<title>T</title><body><header>Logo</header><div>Body <i>text</i></div>' +
      '<p hidden>hidden</p><footer>Foot</footer></body>';
    expect(htmlToText(html)).toEqual({ title: 'T', text: 'Body text' });
  });

  it('reads a lone article as the main text, and the body when there are several', () => {
    const article = '<article><h2>Story</h2><p>Told</p></article>';
    expect(htmlToText(`<body><div>Teaser</div>${article}</body>`)).toEqual({
      title: '',
      text: 'Story\nTold',
    });
    expect(htmlToText(`<body><div>Teaser</div>${article}${article}</body>`)).toEqual({
      title: '',
      text: 'Teaser\nStory\nTold\nStory\nTold',
    });
  });

  it('reads a fragment without a body', () => {
    expect(htmlToText('<p>One</p><p>Two <!-- not this --></p>')).toEqual({
      title: '',
      text: 'One\nTwo',
    });
  });
});
