'use client';

import { type CSSProperties, lazy, Suspense, useEffect, useState } from 'react';

// sonner (about 10 KiB gzip) is not needed to show a page: it loads once the page has hydrated,
// so its region for toasts, which screen readers announce, is in place before anyone acts.
const Sonner = lazy(() => import('sonner').then(({ Toaster }) => ({ default: Toaster })));

// Sonner's toasts read these variables: point them at the design tokens, so a toast looks like
// the app's popovers in both themes.
const tokens = {
  '--normal-bg': 'var(--popover)',
  '--normal-text': 'var(--popover-foreground)',
  '--normal-border': 'var(--border)',
  fontFamily: 'inherit',
} as CSSProperties;

/** Where toasts appear (`./toast`); mounted once, in the root layout. */
export function Toaster() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return null;
  return (
    <Suspense>
      <Sonner theme="system" style={tokens} />
    </Suspense>
  );
}
