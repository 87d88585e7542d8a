import { useEffect } from 'react';
import { PRODUCT_NAME } from './brand';

/** The tab's title: the page's own and the product's name. Undefined (still loading) leaves it as it is. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title !== undefined) document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
