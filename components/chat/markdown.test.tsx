// @vitest-environment happy-dom
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { type ReactNode, use } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

afterEach(() => {
  cleanup();
  vi.doUnmock('./streamdown-markdown');
});

/**
 * Holds the renderer's import in the next fresh module until `release`; it then gives
 * `StreamdownMarkdown` as the renderer, or the real one.
 */
function holdRenderer(StreamdownMarkdown?: (props: Answer) => ReactNode): {
  release: () => void;
} {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.doMock('./streamdown-markdown', async () => {
    await held;
    return StreamdownMarkdown ? { StreamdownMarkdown } : vi.importActual('./streamdown-markdown');
  });
  return { release };
}

/** An answer as the transcript renders it. */
type Answer = { text: string; streaming: boolean };

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

/** The renderer's import fails until `recover`, as a dropped network would make it. */
function failRenderer(): { recover: () => void } {
  let failing = true;
  vi.doMock('./streamdown-markdown', async () => {
    if (failing) throw new Error('Failed to fetch');
    return vi.importActual('./streamdown-markdown');
  });
  return {
    recover: () => {
      failing = false;
    },
  };
}

it('shows a finished answer as its text when the renderer cannot be loaded, and tries again', async () => {
  const { recover } = failRenderer();
  vi.resetModules();
  const { Markdown } = await import('./markdown');
  const { container } = render(<Markdown text={'**Done** here'} streaming={false} />);
  await waitFor(() =>
    expect(container.querySelector('.whitespace-pre-wrap')).not.toHaveClass('invisible'),
  );
  expect(container.querySelector('.whitespace-pre-wrap')).toHaveTextContent('**Done** here');
  // A text that mounts once the network is back gets the renderer.
  recover();
  const later = render(<Markdown text={'**Back** again'} streaming={false} />);
  expect(await later.findByText('Back', {}, { timeout: 10_000 })).toHaveAttribute(
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

/** The server's HTML of `text`, finished, from a module whose renderer has loaded. */
async function serverHtml(text: string): Promise<string> {
  await markdown.loadMarkdown();
  return renderToString(<markdown.Markdown text={text} streaming={false} />);
}

/**
 * The page: the server's HTML of the finished answers `texts`, hydrated by a fresh module whose
 * renderer's import is held until `release` (see holdRenderer); `recoverable` collects what
 * React could not hydrate.
 */
async function hydratePage(texts: string[], StreamdownMarkdown?: (props: Answer) => ReactNode) {
  const html = (await Promise.all(texts.map(serverHtml))).join('');
  const { release } = holdRenderer(StreamdownMarkdown);
  vi.resetModules();
  const fresh = await import('./markdown');
  const page = document.createElement('div');
  page.innerHTML = html;
  document.body.append(page);
  const answers = (list: Answer[]) =>
    list.map((answer, index) => <fresh.Markdown key={String(index)} {...answer} />);
  const recoverable: unknown[] = [];
  let root: Root | undefined;
  await act(async () => {
    root = hydrateRoot(page, answers(texts.map((text) => ({ text, streaming: false }))), {
      onRecoverableError: (error) => recoverable.push(error),
    });
  });
  const render = (next: Answer[]) => act(() => root?.render(answers(next)));
  const remove = () => {
    act(() => root?.unmount());
    page.remove();
  };
  return {
    page,
    recoverable,
    release,
    render,
    remove,
    Markdown: fresh.Markdown,
    loadMarkdown: fresh.loadMarkdown,
  };
}

/** The answer whose rendering never gets ready: a transition that renders it waits. */
const WAITING = '**Waits**';
const never = new Promise<void>(() => {});

function SuspendingMarkdown({ text }: Answer) {
  if (text === WAITING) use(never);
  return <p className="markdown">Rendered anew: {text}</p>;
}

/** What SlowMarkdown rendered, in order, with the task its first answer set off. */
const slowOrder: string[] = [];

/** A renderer that takes 10 ms an answer, twice what React renders before it lets a task in. */
function SlowMarkdown({ text }: Answer) {
  const until = performance.now() + 10;
  while (performance.now() < until);
  slowOrder.push(text);
  if (text === '**One**') setImmediate(() => slowOrder.push('another task'));
  return <p className="markdown">{text}</p>;
}

it("renders an answer in place in the server's HTML, with no boundary React would reveal later", async () => {
  // React's server renderer sends a Suspense boundary of over 500 bytes past the page's first
  // 12.8 kB after the rest, and reveals it up to 300 ms after the first paint.
  const html = await serverHtml('## Here\n\nAt **once**.');
  expect(html).toMatch(/^<div class="contents"><div[^>]* class="[^"]*markdown/);
  expect(html).not.toContain('<!--$');
});

it("hydrates the server's rendering as it is, before the renderer has loaded", async () => {
  const text = '## Kept\n\nAs **rendered**.';
  const page = await hydratePage([text]);
  try {
    const heading = page.page.querySelector('.markdown h2');
    expect(heading).toHaveTextContent('Kept');
    expect(page.recoverable).toEqual([]);
    // Once it has loaded, the renderer takes over, showing the same.
    page.release();
    await waitFor(() => expect(page.page.querySelector('.markdown h2')).not.toBe(heading), {
      timeout: 10_000,
    });
    expect(page.page.querySelector('.markdown h2')).toHaveTextContent('Kept');
    expect(page.recoverable).toEqual([]);
  } finally {
    page.remove();
  }
});

it("renders a streaming answer's markdown first, then the server's answers in slices", async () => {
  const texts = ['**One**', '**Two**'];
  slowOrder.length = 0;
  const page = await hydratePage(texts, SlowMarkdown);
  try {
    // A turn's answer starts streaming below them, shown as its text.
    const finished = texts.map((text) => ({ text, streaming: false }));
    await page.render([...finished, { text: '**Live**', streaming: true }]);
    // Outside act(), which renders everything at once, React schedules as in a browser.
    page.release();
    await vi.waitFor(() => expect(page.page.querySelectorAll('p.markdown')).toHaveLength(3));
    // Rendered in one update, the task set off as the first of the server's answers rendered
    // would come after the last; it comes as soon as this.
    await new Promise((resolve) => setImmediate(resolve));
    expect(slowOrder).toEqual(['**Live**', '**One**', 'another task', '**Two**']);
  } finally {
    page.remove();
  }
});

it('never blanks a copy that renders again while the transition to the renderer waits', async () => {
  const page = await hydratePage([WAITING, '## Two'], SuspendingMarkdown);
  try {
    // Copies mounted again, as the transcript does when it virtualises its rows: they show the
    // server's rendering, and take the renderer in one transition, which waits on the first.
    const waiting = <page.Markdown key="waiting" text={WAITING} streaming={false} />;
    const copies = render([waiting, <page.Markdown key="two" text="## Two" streaming={false} />]);
    page.release();
    await act(() => page.loadMarkdown());
    expect(copies.container.querySelector('h2')).toHaveTextContent('Two');
    // The second renders again meanwhile, as a row does when the transcript renders it again.
    // (The first, the same element, does not: rendered now, it would suspend outside the
    // transition.)
    await act(async () =>
      copies.rerender([waiting, <page.Markdown key="two" text="## Two" streaming={false} />]),
    );
    expect(copies.container.querySelector('.invisible')).toBeNull();
    expect(copies.container).toHaveTextContent('Rendered anew: ## Two');
  } finally {
    page.remove();
  }
});

it('shows markdown at once for a hydrated answer that streams on while the transition waits', async () => {
  const text = 'The answer so **far**';
  const page = await hydratePage([WAITING, text], SuspendingMarkdown);
  try {
    page.release();
    await act(() => page.loadMarkdown());
    // A page loaded mid-turn: the stream resumes, and the answer grows.
    await page.render([
      { text: WAITING, streaming: false },
      { text: `${text}, and more`, streaming: true },
    ]);
    expect(page.page.querySelector('.whitespace-pre-wrap')).toBeNull();
    expect(page.page).toHaveTextContent(`Rendered anew: ${text}, and more`);
  } finally {
    page.remove();
  }
});

it('shows a hydrated answer that goes on streaming as its text, until the renderer is in', async () => {
  const text = 'The answer so **far**';
  const page = await hydratePage([text]);
  try {
    await page.render([{ text: `${text}, and more`, streaming: true }]);
    expect(page.page.querySelector('.whitespace-pre-wrap')).toHaveTextContent(
      'The answer so **far**, and more',
    );
    expect(page.page.querySelector('.markdown')).toBeNull();
  } finally {
    page.release();
    page.remove();
  }
});

it('shows a hydrated answer replayed from its start, as it passes the text it was hydrated with', async () => {
  // A page opened while a turn runs replays the turn's answer from its first chunk.
  const text = 'The answer so **far**';
  const page = await hydratePage([text]);
  try {
    await page.render([{ text: 'The', streaming: true }]);
    await page.render([{ text, streaming: true }]);
    expect(page.page.querySelector('.whitespace-pre-wrap')).toHaveTextContent(text);
  } finally {
    page.release();
    page.remove();
  }
});

it("keeps showing the server's rendering of an answer mounted again when the renderer fails", async () => {
  const text = '## Kept\n\nAs **rendered**.';
  const html = await serverHtml(text);
  failRenderer();
  vi.resetModules();
  const fresh = await import('./markdown');
  const page = document.createElement('div');
  page.innerHTML = html;
  document.body.append(page);
  let root: Root | undefined;
  try {
    await act(async () => {
      root = hydrateRoot(page, <fresh.Markdown text={text} streaming={false} />);
    });
    const { container } = render(<fresh.Markdown text={text} streaming={false} />);
    // Given time to fail, the copy still shows the server's rendering, not the raw markdown.
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(container.querySelector('.markdown h2')).toHaveTextContent('Kept');
    expect(container.textContent).not.toContain('## Kept');
  } finally {
    act(() => root?.unmount());
    page.remove();
  }
});

it('shows an answer the server rendered, mounted again before the renderer has loaded, as the server did', async () => {
  const text = '## Kept\n\nAs **rendered**.';
  const page = await hydratePage([text]);
  try {
    // The same text mounted again, as the transcript does when it virtualises its rows.
    const { container } = render(<page.Markdown text={text} streaming={false} />);
    const kept = container.querySelector('.markdown h2');
    expect(kept).toHaveTextContent('Kept');
    expect(container.querySelector('.whitespace-pre-wrap')).toBeNull();
    // Once it has loaded, the renderer takes over, showing the same.
    page.release();
    await waitFor(() => expect(container.querySelector('.markdown h2')).not.toBe(kept), {
      timeout: 10_000,
    });
    expect(container.querySelector('.markdown h2')).toHaveTextContent('Kept');
  } finally {
    page.remove();
  }
});
