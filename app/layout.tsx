import { GeistMono } from 'geist/font/mono';
import { GeistSans } from 'geist/font/sans';
import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { Toaster } from '@/components/ui/toaster';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Quanta', template: '%s · Quanta' },
  description: 'An agent chat app for people who write their own tools.',
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#09090b' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page, the not-found page too, is rendered per request: its scripts need that
  // request's CSP nonce, which a page rendered at build time could not carry.
  await connection();
  return (
    // The Geist fonts are files in the geist package, served by Next from this app: no font
    // request leaves it. Their classes define --font-geist-sans/-mono, which font-sans/-mono read.
    <html lang="en" className={`${GeistSans.variable} ${GeistMono.variable}`}>
      <body className="font-sans">
        <Providers>{children}</Providers>
        <Toaster />
      </body>
    </html>
  );
}
