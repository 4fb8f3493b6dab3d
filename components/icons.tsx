import { XIcon } from 'lucide-react';

/** Kept for components/widgets/widget-container.tsx; new code imports lucide-react's icons. */
export function CloseIcon() {
  return <XIcon aria-hidden className="size-[18px]" />;
}
