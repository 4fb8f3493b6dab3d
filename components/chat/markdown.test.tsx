// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Markdown } from './markdown';

afterEach(cleanup);

it('shows the text at once, and the markdown once its renderer has loaded', async () => {
  const { container, findByText } = render(
    <Markdown text={'Some **bold** words'} streaming={false} />,
  );
  expect(container.textContent).toBe('Some **bold** words');
  const bold = await findByText('bold');
  expect(bold).toHaveAttribute('data-streamdown', 'strong');
  expect(container.textContent).toBe('Some bold words');
});
