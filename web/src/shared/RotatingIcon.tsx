import { useEffect, useState } from 'react';
import type { LucideIcon, LucideProps } from 'lucide-react';

/**
 * One of `icons`, the next every `everyMs` (the spec's rotating emoji). Its own component, so the tick
 * re-renders this icon only, not the frame or page around it.
 */
export function RotatingIcon({ icons, everyMs, ...props }: { icons: readonly LucideIcon[]; everyMs: number } & LucideProps) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setIndex((i) => (i + 1) % icons.length), everyMs);
    return () => clearInterval(timer);
  }, [icons.length, everyMs]);
  const Icon = icons[index];
  return <Icon {...props} />;
}
