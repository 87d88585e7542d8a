import { useLocation } from 'react-router-dom';
import { Spinner } from './ui';

/**
 * The first screen the server drew for this address in place of the boot shell's skeleton cards
 * (a shared product's picture: gateway/src/link-cards/card-tags.ts). The app keeps it when it takes
 * #root over, and the loading states of that address show it instead of a spinner, so the picture
 * stays where it is until the page draws its own over it.
 */
interface KeptScreen {
  path: string;
  /** The whole boot shell (its top bar too): for what loads before the frame. */
  shell: string;
  /** The page's part of it: for what loads inside the frame. */
  content: string;
}

let kept: KeptScreen | undefined;

const CONTENT = /<!--first-screen-->([\s\S]*?)<!--\/first-screen-->/;

/** Keeps the server's first screen of `root` when it is a page's own (not the skeleton cards). */
export function keepFirstScreen(root: HTMLElement, path = window.location.pathname): void {
  const content = CONTENT.exec(root.innerHTML)?.[1];
  kept = content?.includes('hero-img') ? { path, shell: root.innerHTML, content } : undefined;
}

/** A loading state: the kept first screen when it is this address's, else the spinner. */
export function FirstScreenOr({ part, label }: { part: 'shell' | 'content'; label?: string }) {
  const { pathname } = useLocation();
  if (kept?.path !== pathname) return <Spinner label={label} />;
  // the server's own markup, already parsed and shown once: its values were escaped there
  return <div className="first-screen" aria-busy="true" dangerouslySetInnerHTML={{ __html: kept[part] }} />;
}
