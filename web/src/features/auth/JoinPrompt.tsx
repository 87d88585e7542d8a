import { Link } from 'react-router-dom';
import { useSession } from '../../core/store';

/** Whether the viewer is a visitor (no session): shared pages are read-only for them (issue 43 §3). */
export function useVisitor(): boolean {
  const { token, user } = useSession();
  return !token || !user;
}

/** Where a visitor would act (like, comment, save, follow, review): a way to sign up instead, as Letterboxd and Goodreads do. */
export function JoinPrompt({ text, className = 'btn btn-primary' }: { text: string; className?: string }) {
  return (
    // wraps on a phone rather than widening the page
    <Link to="/?join=1" className={className} style={{ whiteSpace: 'normal', maxWidth: '100%' }} data-testid="join-prompt">
      {text}
    </Link>
  );
}
