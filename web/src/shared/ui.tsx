import { useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Star as StarIcon } from 'lucide-react';
import { initialsAvatar } from './avatar';
import { useFocusTrap } from './useFocusTrap';

export function Avatar({ src, name, size = 40, className = '' }: { src?: string | null; name?: string | null; size?: number; className?: string }) {
  const [broken, setBroken] = useState(false);
  const url = src && !broken ? src : initialsAvatar(name);
  return (
    <img
      className={`avatar ${className}`}
      src={url}
      alt={name ?? 'avatar'}
      width={size}
      height={size}
      style={{ width: size, height: size }}
      onError={() => setBroken(true)}
    />
  );
}

export function Stars({ value, size = 16, onChange }: { value: number; size?: number; onChange?: (v: number) => void }) {
  const full = Math.floor(value || 0);
  return (
    <span className="stars" role={onChange ? 'group' : 'img'} aria-label={`${full} of 5 stars`} data-testid="stars">
      {[1, 2, 3, 4, 5].map((i) =>
        onChange ? (
          <button
            key={i}
            type="button"
            className={`star-btn ${i <= full ? 'on' : ''}`}
            aria-label={`${i} star${i > 1 ? 's' : ''}`}
            onClick={() => onChange(i)}
          >
            <StarIcon size={size} fill={i <= full ? 'currentColor' : 'none'} aria-hidden="true" />
          </button>
        ) : (
          <StarIcon key={i} className={`star ${i <= full ? 'on' : ''}`} size={size} fill={i <= full ? 'currentColor' : 'none'} aria-hidden="true" />
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
