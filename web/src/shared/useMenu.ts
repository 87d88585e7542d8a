import { useCallback, useRef, useState } from 'react';
import { useClickOutside } from './useClickOutside';

/** A dropdown's open state; a press outside `ref` closes it. */
export function useMenu() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);
  return { open, setOpen, ref, close };
}
