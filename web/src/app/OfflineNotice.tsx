import { WifiOff } from 'lucide-react';
import { useT } from '../shared/i18n';

/** The offline banner's text (OfflineBanner decides when it shows). */
export function OfflineNotice() {
  const t = useT();
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      <WifiOff size={16} aria-hidden="true" />
      <span>{t('offline')}</span>
    </div>
  );
}
