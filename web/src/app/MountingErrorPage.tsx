import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** Text of a caught failure: message and stack, or a route error's status. */
export function errorDetail(err: unknown): string {
  if (isRouteErrorResponse(err)) return `${err.status} ${err.statusText}`;
  if (err instanceof Error) return `${err.message}\n\n${err.stack ?? ''}`;
  return String(err);
}

/**
 * The fatal page for a screen that fails to load its code or to render (part 2 §2 'React Mounting Error'),
 * the same page main.tsx writes when the app cannot start at all.
 */
export function MountingErrorPage() {
  const err = useRouteError();
  return (
    <div className="fatal" data-testid="mounting-error" style={{ fontFamily: 'system-ui,sans-serif', maxWidth: 720, margin: '10vh auto', padding: 24 }}>
      <h1>React Mounting Error</h1>
      <pre style={{ whiteSpace: 'pre-wrap', background: '#f3f4f6', padding: 12, borderRadius: 8, color: '#b91c1c' }}>{errorDetail(err)}</pre>
      <button className="btn btn-primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
