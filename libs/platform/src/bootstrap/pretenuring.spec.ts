import { setFlagsFromString } from 'node:v8';
import { turnOffPretenuring } from './pretenuring';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));

describe('turnOffPretenuring', () => {
  beforeEach(() => jest.mocked(setFlagsFromString).mockClear());

  it("turns V8's allocation-site pretenuring off by default", () => {
    turnOffPretenuring({});
    expect(setFlagsFromString).toHaveBeenCalledWith('--no-allocation-site-pretenuring');
  });

  it('leaves it on when V8_PRETENURING=on', () => {
    turnOffPretenuring({ V8_PRETENURING: 'on' });
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
