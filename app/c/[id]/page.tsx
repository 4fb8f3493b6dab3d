import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { SessionScreen } from '@/components/session-screen';
import { getDb } from '@/lib/db/client';
import { HttpError } from '@/lib/http/errors';
import { MESSAGE_PAGE, messageText } from '@/lib/protocol';
import { readAs } from '@/lib/sessions/service';
import { viewerId } from '../../viewer';

type Props = { params: Promise<{ id: string }> };

// One read per request, shared by the metadata and the page: the newest messages only; the
// transcript loads earlier ones as the reader scrolls up to them.
const load = cache(async (id: string) => {
  try {
    return await readAs(await getDb(), id, await viewerId(), MESSAGE_PAGE);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { session, messages } = await load((await params).id);
  const first = messages.find((message) => message.role === 'assistant' || message.role === 'user');
  const description = (first && messageText(first).slice(0, 200)) || 'A conversation on Quanta.';
  return {
    title: session.title,
    description,
    openGraph: { title: session.title, description, type: 'article', siteName: 'Quanta' },
    robots: session.visibility === 'public' ? undefined : { index: false },
  };
}

export default async function SessionPage({ params }: Props) {
  return <SessionScreen {...(await load((await params).id))} />;
}
