import type { IncomingMessage } from 'node:http';
import type { Step } from '../http/pipeline';
import { sendEnvelopeError, sendJson } from '../proxy/envelope-reply';
import { routePath } from '../proxy/route-path';
import { ServiceName } from '../proxy/routes';
import { ServiceUrls } from '../proxy/service-proxy';

/** Where each service answers with its part of the member's data (MemberExportModule). */
export const EXPORT_PARTS: Record<ServiceName, string> = {
  auth: '/api/auth/me/export',
  social: '/api/follows/me/export',
  reviews: '/api/reviews/me/export',
  squads: '/api/squads/me/export',
  messaging: '/api/messages/me/export',
  notifications: '/api/notifications/me/export',
};

class PartMissing extends Error {
  constructor(readonly service: ServiceName, readonly status: number) {
    super(`${service} answered ${status}`);
  }
}

/**
 * GET /api/users/me/export (issue 20 §4): one JSON document of everything the member owns, joined
 * from every service's part, asked with the member's own token (each service checks it and reads
 * only the member's rows). All or nothing: a service that does not answer makes it a 503, since a
 * partial export would look complete.
 */
export function createMemberExport(urls: ServiceUrls, timeoutMs: number): Step<IncomingMessage> {
  return async (req, res, next) => {
    if (req.method !== 'GET' || routePath(req.url ?? '/') !== '/api/users/me/export') return next();
    const authorization = req.headers.authorization ?? '';
    try {
      const parts = await Promise.all(
        (Object.keys(EXPORT_PARTS) as ServiceName[]).map(async (service) => {
          const base = urls[service];
          if (!base) throw new PartMissing(service, 503);
          const reply = await fetch(`${base}${EXPORT_PARTS[service]}`, { headers: { authorization }, signal: AbortSignal.timeout(timeoutMs) }).catch(() => null);
          if (!reply || !reply.ok) throw new PartMissing(service, reply?.status ?? 503);
          return [service, ((await reply.json()) as { data: unknown }).data] as const;
        }),
      );
      const document = { exported_at: new Date().toISOString(), ...Object.fromEntries(parts) };
      sendJson(req, res, { success: true, data: document }, { 'Content-Disposition': 'attachment; filename="squadreviews-export.json"' });
    } catch (err) {
      if (!(err instanceof PartMissing)) return next(err);
      // A revoked or unknown member is the member's problem (401); anything else is the service's.
      if (err.status === 401) return sendEnvelopeError(res, 401, 'Invalid or expired token');
      sendEnvelopeError(res, 503, `The ${err.service} service is unavailable`);
    }
  };
}
