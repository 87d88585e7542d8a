import { useEffect, useState } from 'react';
import { WifiOff } from 'lucide-react';
import { useAppSelector } from '../core/store';
import { useSocket } from '../core/socket';
import { useOnline } from '../shared/useOnline';
import { useT } from '../shared/i18n';

/** True while the session's socket is connected (no socket, as for a visitor, counts as not connected). */
function useSocketConnected(): boolean {
  const socket = useSocket();
  const [connected, setConnected] = useState(socket?.connected ?? false);
  useEffect(() => {
    if (!socket) return setConnected(false);
    const up = () => setConnected(true);
    const down = () => setConnected(false);
    setConnected(socket.connected);
    socket.on('connect', up);
    socket.on('disconnect', down);
    return () => {
      socket.off('connect', up);
      socket.off('disconnect', down);
    };
  }, [socket]);
  return connected;
}

/**
 * Shown when the browser says it is offline, or when an API call got no reply and the socket is not
 * connected either (the gateway is unreachable though the network is up).
 */
export function OfflineBanner() {
  const online = useOnline();
  const apiReachable = useAppSelector((s) => s.network.apiReachable);
  const socketConnected = useSocketConnected();
  const t = useT();
  if (online && (apiReachable || socketConnected)) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      <WifiOff size={16} aria-hidden="true" />
      <span>{t('offline')}</span>
    </div>
  );
}
