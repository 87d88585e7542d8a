import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { Star } from 'lucide-react';
import { PRODUCT_NAME } from './brand';
import { Skeleton, Spinner } from './ui';

/**
 * The first screen the server drew for this address in place of the boot shell's skeleton cards
 * (a product's picture, the catalogue's first card, a profile's head: gateway/src/link-cards/card-tags.ts).
 * The app keeps its nodes when it takes #root over, and the loading states of that address show
 * copies of them instead of a spinner, so what it drew stays where it is until the page draws its
 * own over it. Copies of the nodes the browser already parsed: no markup is parsed again.
 */
interface KeptScreen {
  /** The address it was drawn for, its query included. */
  path: string;
  /** The whole boot shell (its top bar too): for what loads before the frame. */
  shell: Element;
  /** The page's part of it: for what loads inside the frame. */
  content: Element;
}

let kept: KeptScreen | undefined;

/** Keeps the server's first screen in `root` when it is a page's own (not the skeleton cards). */
export function keepFirstScreen(root: HTMLElement, path = window.location.pathname + window.location.search): void {
  const shell = root.querySelector('.boot-shell');
  const content = shell?.querySelector('.content > .page[data-first-screen]');
  kept = shell && content ? { path, shell, content } : undefined;
}

/** A copy of the kept screen's part, put in place before the browser paints. */
function KeptCopy({ node }: { node: Element }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    box.current?.replaceChildren(node.cloneNode(true));
  }, [node]);
  return <div ref={box} className="first-screen" aria-busy="true" />;
}

/** A loading state: the kept first screen when it is this address's, else `children` (the spinner when none). */
export function FirstScreenOr({ part, label, children }: { part: 'shell' | 'content'; label?: string; children?: ReactNode }) {
  const { pathname, search } = useLocation();
  if (kept?.path !== pathname + search) return children ?? <Spinner label={label} />;
  return <KeptCopy node={kept[part]} />;
}

/**
 * The frame's shape while its code arrives (after a sign-in, or a cold load of a member's page): the top
 * bar and skeleton cards, as the boot shell in index.html draws them, never a full-screen "Loading..."
 * (issue 43 §5).
 */
export function FrameShell() {
  return (
    <div className="boot-shell" aria-busy="true" data-testid="frame-shell">
      <div className="topbar">
        <span className="brand">
          <Star className="brand-emoji" size={22} aria-hidden="true" />
          <span className="brand-name">{PRODUCT_NAME}</span>
        </span>
      </div>
      <div className="frame-body">
        <div className="content">
          <Skeleton />
          <Skeleton />
        </div>
      </div>
    </div>
  );
}
