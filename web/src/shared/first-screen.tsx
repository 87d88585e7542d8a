import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { Spinner } from './ui';

/**
 * The first screen the server drew for this address in place of the boot shell's skeleton cards
 * (a shared product's picture: gateway/src/link-cards/card-tags.ts). The app keeps its nodes when
 * it takes #root over, and the loading states of that address show copies of them instead of a
 * spinner, so the picture stays where it is until the page draws its own over it. Copies of the
 * nodes the browser already parsed: no markup is parsed again.
 */
interface KeptScreen {
  path: string;
  /** The whole boot shell (its top bar too): for what loads before the frame. */
  shell: Element;
  /** The page's part of it: for what loads inside the frame. */
  content: Element;
}

let kept: KeptScreen | undefined;

/** Keeps the server's first screen in `root` when it is a page's own (not the skeleton cards). */
export function keepFirstScreen(root: HTMLElement, path = window.location.pathname): void {
  const shell = root.querySelector('.boot-shell');
  const content = shell?.querySelector('.content > .page');
  kept = shell && content?.querySelector('img.hero-img') ? { path, shell, content } : undefined;
}

/** A copy of the kept screen's part, put in place before the browser paints. */
function KeptCopy({ node }: { node: Element }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    box.current?.replaceChildren(node.cloneNode(true));
  }, [node]);
  return <div ref={box} className="first-screen" aria-busy="true" />;
}

/** A loading state: the kept first screen when it is this address's, else the spinner. */
export function FirstScreenOr({ part, label }: { part: 'shell' | 'content'; label?: string }) {
  const { pathname } = useLocation();
  if (kept?.path !== pathname) return <Spinner label={label} />;
  return <KeptCopy node={kept[part]} />;
}
