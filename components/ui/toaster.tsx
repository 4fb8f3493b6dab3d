'use client';

import type { CSSProperties } from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';

// Sonner's toasts read these variables: point them at the design tokens, so a toast looks like
// the app's popovers in both themes.
const tokens = {
  '--normal-bg': 'var(--popover)',
  '--normal-text': 'var(--popover-foreground)',
  '--normal-border': 'var(--border)',
  fontFamily: 'inherit',
} as CSSProperties;

/** Where toast() messages appear; mounted once, in the root layout. */
export function Toaster(props: ToasterProps) {
  return <Sonner theme="system" style={tokens} {...props} />;
}
