import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModuleKind, transpileModule } from 'typescript';
import { setFlagsFromString } from 'node:v8';
import { limitHeapGrowth, limitNewSpace, NEW_SPACE_BYTES } from './heap-growth';

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

describe('limitNewSpace', () => {
  it('leaves a --max-semi-space-size given to node as it is', () => {
    expect(limitNewSpace(['--max-semi-space-size=16'])).toBeUndefined();
    expect(limitNewSpace(['--max_semi_space_size=2'])).toBeUndefined();
  });

  /**
   * The young generation's size after a burst of short-lived objects made a request's
   * worth (about 150 kB) at a time, in a fresh node given this file as JavaScript
   * (ts-node's compiling would grow it first).
   */
  const newSpaceAfterBurst = (limited: boolean): number => {
    const compiled = join(mkdtempSync(join(tmpdir(), 'heap-growth-')), 'heap-growth.js');
    const source = readFileSync(join(__dirname, 'heap-growth.ts'), 'utf8');
    const options = { compilerOptions: { module: ModuleKind.CommonJS } };
    writeFileSync(compiled, transpileModule(source, options).outputText);
    const script = `
      ${limited ? `require(${JSON.stringify(compiled)}).limitNewSpace([]);` : ''}
      let kept = [], i = 0;
      const burst = () => {
        for (let j = 0; j < 2000; j++, i++) {
          kept.push({ i, text: 'x' + i });
          if (kept.length > 20000) kept = [];
        }
        if (i < 4e6) return setImmediate(burst);
        const spaces = require('node:v8').getHeapSpaceStatistics();
        console.log(spaces.find((s) => s.space_name === 'new_space').space_size);
      };
      burst();`;
    return Number(execFileSync(process.execPath, ['-e', script]).toString());
  };

  it('holds the young generation at 8 MiB where V8 would grow it to 32', () => {
    expect(newSpaceAfterBurst(false)).toBeGreaterThan(NEW_SPACE_BYTES);
    expect(newSpaceAfterBurst(true)).toBe(NEW_SPACE_BYTES);
  });
});
