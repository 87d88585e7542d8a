import { planProcesses } from './distributed';

describe('planProcesses: each child\'s memory settings', () => {
  const env = { DATA_DIR: '/tmp/launcher-spec', JWT_SECRET: 'a-secret-for-the-spec' };

  it('gives every child one malloc arena, fixed malloc thresholds and a 4 MB young generation', () => {
    const specs = planProcesses(env, ['--replicas', 'gateway=2'], '/dist');
    expect(specs).toHaveLength(8);
    for (const spec of specs) {
      expect(spec.env).toMatchObject({ MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072', NODE_OPTIONS: '--max-semi-space-size=4' });
    }
  });

  it('keeps what the environment sets', () => {
    const [spec] = planProcesses({ ...env, MALLOC_ARENA_MAX: '4', MALLOC_TRIM_THRESHOLD_: '0', NODE_OPTIONS: '--max-semi-space-size=16' }, [], '/dist');
    expect(spec.env).toMatchObject({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '0', NODE_OPTIONS: '--max-semi-space-size=16' });
  });
});
