import { setFlagsFromString } from 'node:v8';
import { limitHeapGrowth } from './heap-growth';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));

describe('limitHeapGrowth', () => {
  beforeEach(() => jest.mocked(setFlagsFromString).mockClear());

  it('lets the old generation grow to 1.75 times what survived', () => {
    limitHeapGrowth(['--enable-source-maps']);
    expect(setFlagsFromString).toHaveBeenCalledWith('--heap-growing-percent=75');
  });

  it('leaves a --heap-growing-percent given to node as it is', () => {
    limitHeapGrowth(['--heap-growing-percent=200']);
    limitHeapGrowth(['--heap_growing_percent=50']);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
