import { useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Star as StarIcon } from 'lucide-react';
import { initials, initialsColour } from './avatar';
import { useFocusTrap } from './useFocusTrap';
import { firstChunkText } from './first-chunk-texts';

/**
 * A member's picture, or their initials on a colour of their own when they have none (or it fails to
 * load). The initials are drawn by CSS (styles.css), not as an SVG picture: each of those was drawn on the
 * main thread at every paint (17 ms of a phone's first screen on /home, issue 30); as generated content they
 * stay out of the text around them, as the picture's were.
 */
export function Avatar({ src, name, size = 40, className = '' }: { src?: string | null; name?: string | null; size?: number; className?: string }) {
  const [broken, setBroken] = useState(false);
  const label = name ?? 'avatar';
  if (src && !broken)
    return <img className={`avatar ${className}`} src={src} alt={label} width={size} height={size} style={{ width: size, height: size }} onError={() => setBroken(true)} />;
  return (
    <span
      className={`avatar avatar-initials ${className}`}
      role="img"
      aria-label={label}
      data-initials={initials(name)}
      style={{ width: size, height: size, background: initialsColour(name), fontSize: size * 0.4 }}
    />
  );
}

/** A rating shown to the nearest half star (averages such as 3.75 included). */
export function roundToHalf(value: number): number {
  return Math.round((value || 0) * 2) / 2;
}

/** One star, filled by 0, 0.5 or 1: the half is a filled star clipped to its left half over an empty one. */
function StarGlyph({ fill, size }: { fill: number; size: number }) {
  if (fill !== 0.5) return <StarIcon className={`star ${fill ? 'on' : ''}`} size={size} fill={fill ? 'currentColor' : 'none'} aria-hidden="true" />;
  return (
    <span className="star-half" style={{ position: 'relative', display: 'inline-flex', width: size, height: size }} data-half="true">
      <StarIcon className="star" size={size} fill="none" aria-hidden="true" />
      <span style={{ position: 'absolute', inset: 0, width: size / 2, overflow: 'hidden' }}>
        <StarIcon className="star on" size={size} fill="currentColor" aria-hidden="true" />
      </span>
    </span>
  );
}

const starLabel = (v: number) => firstChunkText(v === 1 ? 'star' : 'starMany', v);

/**
 * Half-star ratings (issue 21 §1). As an input each star has two buttons, its left half (n - 0.5)
 * and its right half (n), so every step is one Tab stop and one Enter away.
 */
export function Stars({ value, size = 16, onChange }: { value: number; size?: number; onChange?: (v: number) => void }) {
  const shown = roundToHalf(value);
  const fillOf = (i: number) => (shown >= i ? 1 : shown >= i - 0.5 ? 0.5 : 0);
  return (
    <span className="stars" role={onChange ? 'group' : 'img'} aria-label={firstChunkText('stars', shown)} data-testid="stars" data-value={shown}>
      {[1, 2, 3, 4, 5].map((i) =>
        onChange ? (
          <span key={i} className="star-slot" style={{ position: 'relative', display: 'inline-flex', padding: '0 1px' }}>
            <StarGlyph fill={fillOf(i)} size={size} />
            {[i - 0.5, i].map((v, half) => (
              <button
                key={v}
                type="button"
                className={`star-btn ${shown >= v ? 'on' : ''}`}
                style={{ position: 'absolute', top: 0, bottom: 0, left: half ? '50%' : 0, width: '50%', padding: 0 }}
                aria-label={starLabel(v)}
                aria-pressed={shown === v}
                onClick={() => onChange(v)}
              />
            ))}
          </span>
        ) : (
          <StarGlyph key={i} fill={fillOf(i)} size={size} />
        ),
      )}
    </span>
  );
}

export function Modal({ open, onClose, title, children, wide }: { open: boolean; onClose: () => void; title?: ReactNode; children: ReactNode; wide?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useFocusTrap(box, open, onClose);
  if (!open) return null;
  return createPortal(
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} className={`modal ${wide ? 'modal-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={title ? titleId : undefined} tabIndex={-1}>
        {title && (
          <h2 className="modal-title" id={titleId}>
            {title}
          </h2>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}

export function Spinner({ label }: { label?: string }) {
  return (
    <div className="spinner-wrap" role="status">
      <span className="spinner" />
      {label && <span>{label}</span>}
    </div>
  );
}

export function Skeleton({ lines = 3 }: { lines?: number }) {
  return (
    <div className="card skeleton" data-testid="skeleton" aria-busy="true">
      <div className="sk-row">
        <div className="sk sk-circle" />
        <div style={{ flex: 1 }}>
          <div className="sk sk-line" style={{ width: '40%' }} />
          <div className="sk sk-line" style={{ width: '25%' }} />
        </div>
      </div>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="sk sk-line" style={{ width: `${90 - i * 12}%` }} />
      ))}
    </div>
  );
}

export function EmptyState({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="empty card">
      <div className="empty-title">{title}</div>
      {children}
    </div>
  );
}
