/** Up to four images in a grid, '+N' on the fourth when there are more; a click opens the viewer there. */
export function ReviewImages({ images, onOpen }: { images: string[]; onOpen: (index: number) => void }) {
  return (
    <div className={`image-grid n${Math.min(images.length, 4)}`}>
      {images.slice(0, 4).map((src, i) => (
        <button key={src + i} className="image-cell" onClick={() => onOpen(i)}>
          <img src={src} alt={`Review image ${i + 1}`} loading="lazy" />
          {i === 3 && images.length > 4 && <span className="more-images">+{images.length - 4}</span>}
        </button>
      ))}
    </div>
  );
}
