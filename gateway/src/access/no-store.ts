import type { Step } from '../http/pipeline';

/**
 * Every /api reply is `Cache-Control: no-store` unless its route says otherwise (issue 45 §8):
 * notifications, conversations, settings, the export and the member's own data must stay out of
 * shared caches and off a shared computer's disk. Set before any other step, so the gateway's own
 * refusals carry it too; a header the reply sets itself wins (Node merges `writeHead`'s over it):
 * media's `public, immutable`, the revalidated feed, profile and product pages' `private, no-cache`.
 */
export const noStoreByDefault: Step = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
