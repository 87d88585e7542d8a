import express, { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Paths the gateway answers itself: never the SPA's index.html. */
const NOT_APP = ['/api', '/socket.io', '/health', '/metrics'];

function isAppRoute(path: string): boolean {
  return !NOT_APP.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * Serves the built SPA: hashed assets cached for a year, every other non-API GET answered
 * with index.html so client-side routes survive a reload (history fallback).
 */
export function createSpaHandlers(webDir: string) {
  const root = resolve(webDir);
  const index = join(root, 'index.html');
  const assets = express.static(root, {
    index: false,
    setHeaders: (res, path) => {
      res.setHeader('Cache-Control', path.includes(`${join(root, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const fallback = (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isAppRoute(req.path)) return next();
    if (!existsSync(index)) {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build:web`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  };
  return [assets, fallback];
}
