// @vitest-environment happy-dom
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

afterEach(() => {
  cleanup();
  vi.doUnmock('./streamdown-markdown');
});

/** Holds the renderer's import in the next fresh module until `release`. */
function holdRenderer(): { release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.doMock('./streamdown-markdown', async () => {
    await held;
    return vi.importActual('./streamdown-markdown');
  });
  return { release };
}

// Each test starts as a page does, with the renderer not loaded yet.
let markdown: typeof import('./markdown');
beforeEach(async () => {
  vi.resetModules();
  markdown = await import('./markdown');
});

it('shows a streamed answer as its text at once, and as markdown once the renderer has loaded', async () => {
  const { Markdown } = markdown;
  const { container, findByText } = render(
    <Markdown text={'Some **bold** words'} streaming={true} />,
  );
  const raw = container.querySelector('.whitespace-pre-wrap');
  expect(raw).toHaveTextContent('Some **bold** words');
  expect(raw).not.toHaveClass('invisible');
  // The renderer's first load, here, takes up to a second or two.
  const bold = await findByText('bold', {}, { timeout: 10_000 });
  expect(bold).toHaveAttribute('data-streamdown', 'strong');
  expect(container.textContent).toBe('Some bold words');
});

it('goes on showing a streamed answer as its text once it has ended, until the renderer is in', async () => {
  const { release } = holdRenderer();
  vi.resetModules();
  const { Markdown } = await import('./markdown');
  const text = 'A *short* answer';
  const { container, rerender, findByText } = render(<Markdown text={text} streaming={true} />);
  rerender(<Markdown text={text} streaming={false} />);
  const raw = container.querySelector('.whitespace-pre-wrap');
  expect(raw).toHaveTextContent(text);
  expect(raw).not.toHaveClass('invisible');
  release();
  expect(await findByText('short', {}, { timeout: 10_000 })).toBeInTheDocument();
});

it('keeps a finished answer blank, never its raw markdown, until the renderer has loaded', async () => {
  const { Markdown } = markdown;
  const { container, findByText } = render(<Markdown text={'**Done** here'} streaming={false} />);
  // Tailwind's `invisible`: the text keeps the answer's place and is not shown.
  expect(container.querySelector('.whitespace-pre-wrap')).toHaveClass('invisible');
  expect(await findByText('Done', {}, { timeout: 10_000 })).toHaveAttribute(
    'data-streamdown',
    'strong',
  );
});

it('renders a text that mounts after the renderer has loaded at once, with no placeholder', async () => {
  const { loadMarkdown, Markdown } = markdown;
  await loadMarkdown();
  const { container } = render(<Markdown text={'A *quick* one'} streaming={false} />);
  expect(container.querySelector('.markdown em')).toHaveTextContent('quick');
  expect(container.textContent).toBe('A quick one');
});

it('shows an answer the server rendered, mounted again before the renderer has loaded, as the server did', async () => {
  // The server's HTML of a finished answer, from a module whose renderer has loaded.
  const text = '## Kept\n\nAs **rendered**.';
  await markdown.loadMarkdown();
  const html = renderToString(<markdown.Markdown text={text} streaming={false} />);
  expect(html).toContain('<h2');
  // The page: a fresh module hydrates that HTML, then mounts the same text again, as the
  // transcript does when it virtualises its rows, before its renderer has loaded (held here).
  const { release } = holdRenderer();
  vi.resetModules();
  const { Markdown } = await import('./markdown');
  const page = document.createElement('div');
  page.innerHTML = html;
  document.body.append(page);
  let root: Root | undefined;
  try {
    await act(async () => {
      root = hydrateRoot(page, <Markdown text={text} streaming={false} />);
    });
    const { container } = render(<Markdown text={text} streaming={false} />);
    // The copy shows the server's rendering, kept in its fallback.
    const kept = ':scope > .contents > .contents > .markdown';
    expect(container.querySelector(kept)?.querySelector('h2')).toHaveTextContent('Kept');
    expect(container.querySelector('.whitespace-pre-wrap')).toBeNull();
    // Once it has loaded, the renderer takes over, showing the same.
    release();
    await waitFor(() => expect(container.querySelector(kept)).toBeNull(), { timeout: 10_000 });
    expect(container.querySelector(':scope > .contents > .markdown h2')).toHaveTextContent('Kept');
  } finally {
    act(() => root?.unmount());
    page.remove();
  }
});
