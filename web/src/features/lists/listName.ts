import type { ListView } from '@app/contracts';
import { useT } from '../../shared/i18n';

/** "Want to try" is the server's fixed name; the interface shows it in the reader's language. */
export function useListName(): (list: Pick<ListView, 'name' | 'is_default'>) => string {
  const t = useT();
  return (list) => (list.is_default ? t('lists.wantToTry') : list.name);
}
