/**
 * Built into the router library chunk (vite.config.ts): importing it runs that chunk, so the entry can
 * run it in a task of its own before the app's start module (main.tsx). It names one export the app
 * uses anyway, so no export the app does not use is kept.
 */
export { BrowserRouter } from 'react-router-dom';
