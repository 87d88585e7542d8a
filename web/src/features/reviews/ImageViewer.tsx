import { useEffect, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { createPortal } from 'react-dom';
import { useFocusTrap } from '../../shared/useFocusTrap';
import { useT } from '../../shared/i18n';

/** Full-screen viewer: Escape closes, arrow keys and buttons move, counter 'n / total' (part 1 §2). */
export function ImageViewer({ images, alts = [], start, onClose }: { images: string[]; alts?: string[]; start: number; onClose: () => void }) {
  const t = useT();
  const [i, setI] = useState(start);
  const total = images.length;
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, true, onClose);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight') setI((x) => (x + 1) % total);
      if (e.key === 'ArrowLeft') setI((x) => (x - 1 + total) % total);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [total]);
  return createPortal(
    <div ref={box} className="viewer" data-testid="image-viewer" role="dialog" aria-modal="true" aria-label={t('viewer.title')} tabIndex={-1} onClick={onClose}>
      <button className="viewer-close" aria-label={t('viewer.close')} onClick={onClose}>
        <X size={22} aria-hidden="true" />
      </button>
      {total > 1 && (
        <button
          className="viewer-nav left"
          aria-label={t('viewer.previous')}
          onClick={(e) => {
            e.stopPropagation();
            setI((x) => (x - 1 + total) % total);
          }}
        >
          <ChevronLeft size={28} aria-hidden="true" />
        </button>
      )}
      <img src={images[i]} alt={alts[i] || t('viewer.image', { n: i + 1 })} onClick={(e) => e.stopPropagation()} />
      {total > 1 && (
        <button
          className="viewer-nav right"
          aria-label={t('viewer.next')}
          onClick={(e) => {
            e.stopPropagation();
            setI((x) => (x + 1) % total);
          }}
        >
          <ChevronRight size={28} aria-hidden="true" />
        </button>
      )}
      <div className="viewer-count" data-testid="viewer-count">
        {i + 1} / {total}
      </div>
    </div>,
    document.body,
  );
}
