// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamdownMarkdown } from './streamdown-markdown';

vi.mock('./worker-highlighter', () => import('@/tests/helpers/plain-highlighter'));

afterEach(cleanup);

it('renders markdown: emphasis, lists and tables', () => {
  const { container } = render(
    <StreamdownMarkdown
      text={'Some **bold** words\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |'}
      streaming={false}
    />,
  );
  expect(container.querySelector('[data-streamdown="strong"]')?.textContent).toBe('bold');
  expect(container.querySelectorAll('li')).toHaveLength(2);
  expect(screen.getByRole('table')).toBeInTheDocument();
});

it('shows raw HTML as text, never as elements', () => {
  const { container } = render(
    <StreamdownMarkdown
      text={'before <img src=x onerror="alert(1)"> <b>bold</b> after'}
      streaming={false}
    />,
  );
  expect(container.querySelector('img')).not.toBeInTheDocument();
  expect(container.querySelector('b')).not.toBeInTheDocument();
  expect(container.textContent).toContain('<b>bold</b>');
});

it('never makes a javascript: link clickable', () => {
  const { container } = render(
    <StreamdownMarkdown
      text={'[click](javascript:alert(1)) and [docs](https://example.com/)'}
      streaming={false}
    />,
  );
  // Links are buttons that ask first: the javascript: one is none, only blocked text.
  const links = [...container.querySelectorAll('a, [data-streamdown="link"]')];
  expect(links.map((link) => link.textContent)).toEqual(['docs']);
  expect(container.textContent).toContain('click [blocked]');
});

it('gives a code block a copy button', async () => {
  render(<StreamdownMarkdown text={'```js\nconst answer = 42;\n```'} streaming={false} />);
  expect(await screen.findByRole('button', { name: /copy/i })).toBeInTheDocument();
  expect(screen.getAllByText(/answer/).length).toBeGreaterThan(0);
});

it('completes unfinished syntax while it streams', () => {
  const { container } = render(<StreamdownMarkdown text={'some **bold'} streaming />);
  expect(container.querySelector('[data-streamdown="strong"]')?.textContent).toBe('bold');
});

it('keeps an answer it streamed as it is when the stream ends: nothing is rendered again', () => {
  const text = 'First paragraph.\n\n```js\nconst answer = 42;\n```\n\nLast paragraph.';
  const { container, rerender } = render(<StreamdownMarkdown text={text} streaming />);
  const first = container.querySelector('p');
  rerender(<StreamdownMarkdown text={text} streaming={false} />);
  expect(first?.textContent).toBe('First paragraph.');
  expect(container.querySelector('p')).toBe(first);
});

it('shows syntax left unfinished when the stream ended as it is, as a reload would', () => {
  const { container, rerender } = render(<StreamdownMarkdown text={'some **bold'} streaming />);
  rerender(<StreamdownMarkdown text={'some **bold'} streaming={false} />);
  expect(container.querySelector('[data-streamdown="strong"]')).toBeNull();
  expect(container.textContent).toBe('some **bold');
});

describe('images', () => {
  it('shows an image inline in a paragraph as a link, never loading it', () => {
    const { container } = render(
      <StreamdownMarkdown text={'See ![x](https://evil.example/p.png) here.'} streaming={false} />,
    );
    expect(container.querySelector('img')).not.toBeInTheDocument();
    const paragraph = container.querySelector('p');
    const link = paragraph?.querySelector('[data-streamdown="link"]');
    expect(link?.textContent).toBe('🖼 x');
    expect(paragraph?.textContent).toBe('See 🖼 x here.');
    // Nothing block-level inside the paragraph: that broke hydration (React error #418).
    expect(paragraph?.querySelector('div')).not.toBeInTheDocument();
  });

  it('asks before following the link, and then opens the image URL', async () => {
    render(<StreamdownMarkdown text={'![x](https://evil.example/p.png)'} streaming={false} />);
    fireEvent.click(screen.getByText('🖼 x'));
    expect(await screen.findByText('https://evil.example/p.png')).toBeInTheDocument();
  });

  it('labels an image without alt text by its URL, also a reference-style one', () => {
    const { container } = render(
      <StreamdownMarkdown
        text={'![](https://evil.example/a.png) and ![b][ref]\n\n[ref]: https://evil.example/b.png'}
        streaming={false}
      />,
    );
    expect(container.querySelector('img')).not.toBeInTheDocument();
    const labels = [...container.querySelectorAll('[data-streamdown="link"]')].map(
      (link) => link.textContent,
    );
    expect(labels).toEqual(['🖼 https://evil.example/a.png', '🖼 b']);
  });

  it('shows an image whose URL is still streaming as an unfinished link', () => {
    const { container } = render(<StreamdownMarkdown text={'![cat](https://evil.exa'} streaming />);
    expect(container.querySelector('img')).not.toBeInTheDocument();
    const link = container.querySelector('[data-streamdown="link"]');
    expect(link?.textContent).toBe('🖼 cat');
    expect(link?.getAttribute('data-incomplete')).toBe('true');
  });

  it('never makes a javascript: image clickable', () => {
    const { container } = render(
      <StreamdownMarkdown text={'![x](javascript:alert(1))'} streaming={false} />,
    );
    expect(container.querySelector('img')).not.toBeInTheDocument();
    expect(container.querySelector('a, [data-streamdown="link"]')).not.toBeInTheDocument();
    expect(container.textContent).toContain('🖼 x [blocked]');
  });
});

it('asks in a themed dialog before following a link, and gives focus back when cancelled', async () => {
  const open = vi.spyOn(window, 'open').mockImplementation(() => null);
  render(
    <StreamdownMarkdown text={'Read [the docs](https://example.com/guide).'} streaming={false} />,
  );
  const link = screen.getByRole('button', { name: /the docs/ });
  link.focus();
  fireEvent.click(link);
  const prompt = await screen.findByRole('dialog', { name: 'Open external link?' });
  expect(prompt).toHaveTextContent('https://example.com/guide');
  fireEvent.click(within(prompt).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(link).toHaveFocus();
  expect(open).not.toHaveBeenCalled();

  fireEvent.click(link);
  fireEvent.click(
    within(await screen.findByRole('dialog')).getByRole('button', { name: 'Open link' }),
  );
  expect(open).toHaveBeenCalledWith('https://example.com/guide', '_blank', expect.anything());
});
