// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Markdown } from './markdown';

afterEach(cleanup);

it('renders markdown: emphasis, lists and tables', () => {
  const { container } = render(
    <Markdown
      text={'Some **bold** words\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |'}
      streaming={false}
    />,
  );
  expect(container.querySelector('[data-streamdown="strong"]')?.textContent).toBe('bold');
  expect(container.querySelectorAll('li')).toHaveLength(2);
  expect(screen.getByRole('table')).toBeTruthy();
});

it('shows raw HTML as text, never as elements', () => {
  const { container } = render(
    <Markdown text={'before <img src=x onerror="alert(1)"> <b>bold</b> after'} streaming={false} />,
  );
  expect(container.querySelector('img')).toBeNull();
  expect(container.querySelector('b')).toBeNull();
  expect(container.textContent).toContain('<b>bold</b>');
});

it('never makes a javascript: link clickable', () => {
  const { container } = render(
    <Markdown
      text={'[click](javascript:alert(1)) and [docs](https://example.com/)'}
      streaming={false}
    />,
  );
  const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
  expect(hrefs.some((href) => href?.startsWith('javascript:'))).toBe(false);
});

it('gives a code block a copy button', async () => {
  render(<Markdown text={'```js\nconst answer = 42;\n```'} streaming={false} />);
  expect(await screen.findByRole('button', { name: /copy/i })).toBeTruthy();
  expect(screen.getAllByText(/answer/).length).toBeGreaterThan(0);
});

it('completes unfinished syntax while it streams', () => {
  const { container } = render(<Markdown text={'some **bold'} streaming />);
  expect(container.querySelector('[data-streamdown="strong"]')?.textContent).toBe('bold');
});
