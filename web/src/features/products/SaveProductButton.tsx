import { useEffect, useState } from 'react';
import { Bookmark, BookmarkCheck } from 'lucide-react';
import { errorMessage } from '../../core/api';
import { useSaveProductMutation } from './productsApi';
import { useT } from '../../shared/i18n';

/**
 * Saves or unsaves the product through /api/saved/products/{id}; it starts from the product reply's
 * `saved` (the viewer's mark) and follows the server's answer.
 */
export function SaveProductButton({ productId, saved: savedNow }: { productId: string; saved: boolean }) {
  const t = useT();
  const [saved, setSaved] = useState(savedNow);
  useEffect(() => setSaved(savedNow), [savedNow]);
  const [error, setError] = useState<string | null>(null);
  const [save, state] = useSaveProductMutation();
  async function toggle() {
    setError(null);
    const r = await save({ id: productId, save: !saved });
    if ('error' in r) return setError(errorMessage(r.error, t('products.saveFailed')));
    setSaved(!saved);
  }
  return (
    <>
      <button className="btn" onClick={toggle} disabled={state.isLoading} aria-pressed={saved} data-testid="save-product">
        {saved ? <BookmarkCheck size={16} aria-hidden="true" /> : <Bookmark size={16} aria-hidden="true" />} {saved ? t('common.saved') : t('common.save')}
      </button>
      {error && <span className="error-text small">{error}</span>}
    </>
  );
}
