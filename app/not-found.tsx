import { MessageSquareOff } from 'lucide-react';
import Link from 'next/link';
import { Button } from '@/components/ui/button';

export const metadata = { title: 'Not found' };

// A chat that was deleted, made private again, or never existed: one page for all three, so a
// stranger cannot tell them apart.
export default function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-background px-6 text-center">
      <MessageSquareOff aria-hidden className="size-10 text-muted-foreground" />
      <h1 className="text-xl font-semibold tracking-tight">This chat isn’t here</h1>
      <p className="max-w-sm text-muted-foreground">
        It may have been deleted or made private by its owner, or the link may be mistyped.
      </p>
      <Button asChild>
        <Link href="/">Start a new chat</Link>
      </Button>
    </main>
  );
}
