import { connection } from 'next/server';
import { HomeScreen } from '@/components/home-screen';

export default async function HomePage() {
  // Rendered per request, never cached as static: the answer may set a new owner's identity
  // cookie, which a shared cache must not hand to anyone else.
  await connection();
  return <HomeScreen />;
}
