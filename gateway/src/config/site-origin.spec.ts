import { loadGatewayConfig } from '../gateway.app';
import { siteOrigin } from './gateway.config';

/** Issue 45 §5: absolute links come from configuration, never from the request. */
describe('siteOrigin', () => {
  const base = { NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(32) };

  it('is APP_ORIGIN when set (without a trailing slash), else http://localhost:PORT', () => {
    expect(siteOrigin(loadGatewayConfig({ ...base, APP_ORIGIN: 'https://squad.example/' }))).toBe('https://squad.example');
    expect(siteOrigin(loadGatewayConfig({ ...base, PORT: '8080' }))).toBe('http://localhost:8080');
  });

  it('refuses to start a production gateway without APP_ORIGIN', () => {
    expect(() => loadGatewayConfig({ ...base, NODE_ENV: 'production' })).toThrow(/APP_ORIGIN: required when NODE_ENV=production/);
  });
});
