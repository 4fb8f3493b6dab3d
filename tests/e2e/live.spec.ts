import { emptySession, expect, notReloaded, send, shareWith, test } from './fixtures';

test('a reader of a public link sees the owner’s new turn without reloading', async ({
  page,
  stranger: reader,
}) => {
  await emptySession(page);

  // Someone else, with only the link, keeps the page open.
  await shareWith(page, reader, page.url());
  await expect(reader.getByText('Read-only', { exact: true })).toBeVisible();
  await expect(reader.getByText('No messages yet.')).toBeVisible();

  await send(page, 'what is 2 + 2');
  await expect(
    page.getByRole('list', { name: 'Transcript' }).getByText('2 + 2 = 4.'),
  ).toBeVisible();

  const transcript = reader.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByText('2 + 2 = 4.')).toBeVisible();
  await expect(transcript.getByText('what is 2 + 2')).toBeVisible();
  expect(await notReloaded(reader)).toBe(true);
  await expect(reader.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  await reader.screenshot({ path: 'test-results/live-reader.png' });
});
