import type { SyntheticEvent } from 'react';
import { translate } from '../../shared/i18n';
/** Up to four images in a grid, '+N' on the fourth when there are more; a click opens the viewer there. */
/** `alts` are the author's descriptions (issue 21 §7); an image without one keeps its numbered name. */
export function ReviewImages({ images, alts = [], onOpen }: { images: string[]; alts?: string[]; onOpen: (index: number) => void }) {
  return (
    <div className={`image-grid n${Math.min(images.length, 4)}`}>
      {images.slice(0, 4).map((src, i) => (
        <button key={src + i} className="image-cell" onClick={() => onOpen(i)}>
          <img src={src} alt={alts[i] || translate('review.image', { n: i + 1 })} loading="lazy" onLoad={markSmall} />
          {i === 3 && images.length > 4 && <span className="more-images">+{images.length - 4}</span>}
        </button>
      ))}
    </div>
  );
}

/** A photo smaller than its tile is shown at its own size (styles.css `.is-small`), not stretched to cover it. */
function markSmall(e: SyntheticEvent<HTMLImageElement>): void {
  const img = e.currentTarget;
  if (img.naturalWidth < img.clientWidth || img.naturalHeight < img.clientHeight) img.classList.add('is-small');
}
