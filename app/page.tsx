import { HomeScreen } from '@/components/home-screen';

export default function HomePage() {
  return <HomeScreen />;
}
