import { SocketLimits, tooManyEvents } from './socket-limits';

describe('socket limits', () => {
  it('refuses events past the per-socket budget, with the seconds to wait, socket by socket', async () => {
    const limits = new SocketLimits({ enabled: true, events: '3/60', messages: '100/60' });
    const waits = [];
    for (let i = 0; i < 4; i++) waits.push(await limits.event('socket-a'));
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeGreaterThanOrEqual(1);
    expect(waits[3]).toBeLessThanOrEqual(60);
    expect(await limits.event('socket-b')).toBe(0);
  });

  it('counts messages per member across their sockets', async () => {
    const limits = new SocketLimits({ enabled: true, events: '100/60', messages: '2/60' });
    expect([await limits.message('m1'), await limits.message('m1')]).toEqual([0, 0]);
    expect(await limits.message('m1')).toBeGreaterThan(0);
    expect(await limits.message('m2')).toBe(0);
  });

  it('lets everything through when RATE_LIMITS=off', async () => {
    const limits = new SocketLimits({ enabled: false, events: '1/60', messages: '1/60' });
    for (let i = 0; i < 5; i++) {
      expect(await limits.event('s')).toBe(0);
      expect(await limits.message('m')).toBe(0);
    }
  });

  it('says how long to wait in the ack', () => {
    expect(tooManyEvents(7)).toEqual({ success: false, message: 'Too many requests, please try again in 7 s' });
  });
});
