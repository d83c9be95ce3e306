import { execFileSync } from 'node:child_process';
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

describe("V8's heap-growing-percent flag", () => {
  it('is a flag this Node’s V8 still has (an unknown one is set silently)', () => {
    const flags = execFileSync(process.execPath, ['--v8-options']).toString();
    expect(flags).toMatch(/--heap-growing-percent\b/);
  });
});
