import { setFlagsFromString } from 'node:v8';
import { tuneHeap } from './process-heap';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));

describe('tuneHeap', () => {
  beforeEach(() => jest.mocked(setFlagsFromString).mockClear());

  it("limits the old generation's growth to 50 %, turns V8's allocation-site pretenuring off and keeps WebAssembly on Liftoff by default", () => {
    tuneHeap({});
    expect(jest.mocked(setFlagsFromString).mock.calls).toEqual([['--heap-growing-percent=50'], ['--no-allocation-site-pretenuring'], ['--liftoff-only']]);
  });

  it('takes HEAP_GROWING_PERCENT, leaves the growth to V8 with 0, pretenuring on with V8_PRETENURING=on and tier-up with WASM_TIER_UP=on', () => {
    tuneHeap({ HEAP_GROWING_PERCENT: '80', V8_PRETENURING: 'on', WASM_TIER_UP: 'on' });
    expect(jest.mocked(setFlagsFromString).mock.calls).toEqual([['--heap-growing-percent=80']]);
    jest.mocked(setFlagsFromString).mockClear();
    tuneHeap({ HEAP_GROWING_PERCENT: '0', V8_PRETENURING: 'on', WASM_TIER_UP: 'on' });
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
