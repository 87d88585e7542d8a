import { Component, type ReactNode } from 'react';
import { firstChunkText } from '../shared/first-chunk-texts';

/** Text of a caught failure: message and stack. */
export function errorDetail(err: unknown): string {
  if (err instanceof Error) return `${err.message}\n\n${err.stack ?? ''}`;
  return String(err);
}

/**
 * The fatal page for a screen that fails to load its code or to render (part 2 §2 'React Mounting Error'),
 * the same page main.tsx writes when the app cannot start at all.
 */
export function MountingErrorPage({ error }: { error: unknown }) {
  return (
    <div className="fatal" data-testid="mounting-error" style={{ fontFamily: 'system-ui,sans-serif', maxWidth: 720, margin: '10vh auto', padding: 24 }}>
      <h1>{firstChunkText('mountingError')}</h1>
      <pre style={{ whiteSpace: 'pre-wrap', background: '#f3f4f6', padding: 12, borderRadius: 8, color: '#b91c1c' }}>{errorDetail(error)}</pre>
      <button className="btn btn-primary" onClick={() => window.location.reload()}>
        {firstChunkText('reload')}
      </button>
    </div>
  );
}

/**
 * Catches what a screen throws while loading its code or rendering, and shows MountingErrorPage instead;
 * another `resetKey` (the address) tries again.
 */
export class MountingErrorBoundary extends Component<{ resetKey: string; children: ReactNode }, { failed: boolean; error?: unknown }> {
  override state: { failed: boolean; error?: unknown } = { failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false, error: undefined });
  }

  override render() {
    return this.state.failed ? <MountingErrorPage error={this.state.error} /> : this.props.children;
  }
}
