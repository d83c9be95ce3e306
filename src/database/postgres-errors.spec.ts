import { QueryFailedError } from 'typeorm';
import { isConnectionFailure } from './postgres-errors';

describe('isConnectionFailure', () => {
  it('knows a refused connection, bare or inside the TypeORM error that wraps it', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(isConnectionFailure(refused)).toBe(true);
    expect(isConnectionFailure(new QueryFailedError('SELECT 1', [], refused))).toBe(true);
  });

  it('does not take a failing statement for an outage', () => {
    const syntax = Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' });
    expect(isConnectionFailure(syntax)).toBe(false);
    expect(isConnectionFailure(new QueryFailedError('SELEC 1', [], syntax))).toBe(false);
  });
});
