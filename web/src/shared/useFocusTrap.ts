import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * While `active`, Tab and Shift+Tab cycle inside the box, Escape calls `onEscape`, the first field gets the focus
 * on opening, and the element that had the focus before gets it back on closing.
 */
export function useFocusTrap(box: RefObject<HTMLElement | null>, active: boolean, onEscape: () => void): void {
  // callers pass a new closure each render; the trap must not restart (and move the focus) because of it
  const escape = useRef(onEscape);
  escape.current = onEscape;
  useEffect(() => {
    if (!active) return;
    const before = document.activeElement as HTMLElement | null;
    const focusables = () => Array.from(box.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).filter((el) => el.offsetParent !== null || el === document.activeElement);
    const first = focusables().find((el) => el.matches('input, textarea, select')) ?? focusables()[0];
    (first ?? box.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') return escape.current();
      if (e.key !== 'Tab' || !box.current) return;
      const all = focusables();
      if (all.length === 0) return e.preventDefault();
      const i = all.indexOf(document.activeElement as HTMLElement);
      const next = e.shiftKey ? (i <= 0 ? all.length - 1 : i - 1) : i === -1 || i === all.length - 1 ? 0 : i + 1;
      e.preventDefault();
      all[next].focus();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      before?.focus?.();
    };
  }, [active, box]);
}
