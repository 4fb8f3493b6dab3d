import { beforeAll, beforeEach, expect, it, vi } from 'vitest';
import SessionPage from '@/app/c/[id]/page';
import { cookieFor, rotateCookie } from '@/lib/auth/identity';
import { createSession } from '@/lib/db/sessions';
import { newId } from '@/lib/ids';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { bearerFor, useDatabase } from '@/tests/helpers/routes';

process.env.QUANTA_SECRET = 'test-secret';

// The page reads the request's headers through next/headers; here they are the test's.
const requestHeaders = vi.hoisted(() => ({ current: new Headers() }));
vi.mock('next/headers', () => ({ headers: async () => requestHeaders.current }));

type Rendered = { props: { session: { id: string; isOwner: boolean } } & Record<string, unknown> };

async function render(id: string, headers: Record<string, string>) {
  requestHeaders.current = new Headers(headers);
  return (await SessionPage({ params: Promise.resolve({ id }) })) as unknown as Rendered;
}

describeEachDatabase('the session page (/c/:id)', (database) => {
  beforeAll(() => useDatabase(database()));
  let ownerId: string;
  let id: string;
  beforeEach(async () => {
    ownerId = newId();
    id = (await createSession(database().db, { ownerId })).id;
  });

  it('renders a private session for its owner’s API token', async () => {
    const { bearer } = await bearerFor(ownerId);
    const page = await render(id, { authorization: `Bearer ${bearer}` });
    expect(page.props.session).toMatchObject({ id, isOwner: true });
  });

  it('renders it for the owner’s cookie, and passes the page no credential', async () => {
    const page = await render(id, { cookie: `quanta_id=${cookieFor(ownerId)}` });
    expect(page.props.session.isOwner).toBe(true);
    expect(JSON.stringify(page.props)).not.toContain(cookieFor(ownerId));
    expect(Object.keys(page.props).sort()).toEqual([
      'hasEarlier',
      'messages',
      'session',
      'widgetStates',
    ]);
  });

  it('is not there for another owner’s token, an unknown token, or a rotated cookie', async () => {
    const stranger = await bearerFor(newId());
    const old = cookieFor(ownerId);
    await rotateCookie(database().db, ownerId);
    const strangers: Record<string, string>[] = [
      { authorization: `Bearer ${stranger.bearer}` },
      { authorization: 'Bearer qk_nope' },
      { cookie: `quanta_id=${old}` },
    ];
    for (const headers of strangers) {
      await expect(render(id, headers)).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404/);
    }
  });
});
