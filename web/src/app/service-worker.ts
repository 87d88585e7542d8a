/**
 * Registers the service worker vite-plugin-pwa generates (/sw.js: the shell precached, `skipWaiting` and
 * `clientsClaim`), once the page has loaded, so its precache does not compete with the first screen's
 * requests. Without the plugin's client (workbox-window): those 3 KB were on every page's first load, the
 * landing page's included, for what these lines do. As its 'autoUpdate' mode did, a page that a newer
 * version takes over reloads into it; the first install, which takes over a page no worker controlled, does not.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    const updating = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (updating) window.location.reload();
    });
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined); // no worker: the app works online
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
