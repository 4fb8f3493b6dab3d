import { HomeScreen } from '@/components/home-screen';
import { viewer } from './viewer';

export default async function HomePage() {
  const { token } = await viewer();
  return <HomeScreen token={token} />;
}
