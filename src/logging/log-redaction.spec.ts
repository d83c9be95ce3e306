import { QueryFailedError } from 'typeorm';
import { redactRequestUrl, serializeError } from './log-redaction';

describe('redactRequestUrl', () => {
  it('hides an API key given in the query, wherever it stands', () => {
    expect(redactRequestUrl({ url: '/storage?apiKey=atr_secret&id=4' }).url).toBe(
      '/storage?apiKey=[Redacted]&id=4',
    );
    expect(redactRequestUrl({ url: '/storage?id=4&apiKey=atr_secret' }).url).toBe(
      '/storage?id=4&apiKey=[Redacted]',
    );
  });

  it.each(['api%4Bey', '%61piKey', 'APIKEY', '%61%70%69%4b%65%79'])(
    'hides it under a name the query parser reads as apiKey: %s',
    (name) => {
      expect(redactRequestUrl({ url: `/auth?${name}=atr_secret&x=1` }).url).toBe(
        `/auth?${name}=[Redacted]&x=1`,
      );
    },
  );

  it("hides an OpenID provider's code and state, and every copy of a parameter", () => {
    expect(redactRequestUrl({ url: '/oauth/p?code=c0de&state=s7&code=again' }).url).toBe(
      '/oauth/p?code=[Redacted]&state=[Redacted]&code=[Redacted]',
    );
  });

  it('leaves other URLs as they are', () => {
    expect(redactRequestUrl({ url: '/rest/entity/account/1?myapiKey=x&bad=%zz' }).url).toBe(
      '/rest/entity/account/1?myapiKey=x&bad=%zz',
    );
    expect(redactRequestUrl({ url: '/rest/entity/account/1' }).url).toBe('/rest/entity/account/1');
    expect(redactRequestUrl<{ url?: string }>({}).url).toBeUndefined();
  });
});

describe('serializeError', () => {
  it("keeps a database error's message and codes, not its parameters or detail", () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      constraint: 'UQ_api_key_hash',
      detail: 'Key (key_hash)=(5e884898da) already exists.',
      parameters: ['5e884898da'],
    });
    const error = new QueryFailedError(
      'INSERT INTO api_key VALUES ($1)',
      ['5e884898da'],
      driverError,
    );
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain('5e884898da');
    expect(logged).toContain('INSERT INTO api_key VALUES ($1)');
    expect(logged).toContain('23505');
    expect(logged).toContain('UQ_api_key_hash');
  });
});
