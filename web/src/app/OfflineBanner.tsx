import { Suspense, lazy, useEffect, useState } from 'react';
import { useAppSelector } from '../core/store';
import { useSocket } from '../core/socket';
import { useOnline } from '../shared/useOnline';
import { withTexts } from '../shared/i18n/with-texts';

// its text loads when it is first shown (the service worker has it offline)
const OfflineNotice = lazy(() => withTexts(() => import('./OfflineNotice')).then((m) => ({ default: m.OfflineNotice })));

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
  if (online && (apiReachable || socketConnected)) return null;
  return (
    <Suspense fallback={null}>
      <OfflineNotice />
    </Suspense>
  );
}
