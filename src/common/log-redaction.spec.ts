import { redactRequestUrl } from './log-redaction';

describe('redactRequestUrl', () => {
  it('hides an API key given in the query, wherever it stands', () => {
    expect(redactRequestUrl({ url: '/storage?apiKey=atr_secret&id=4' }).url).toBe(
      '/storage?apiKey=[Redacted]&id=4',
    );
    expect(redactRequestUrl({ url: '/storage?id=4&apiKey=atr_secret' }).url).toBe(
      '/storage?id=4&apiKey=[Redacted]',
    );
  });

  it('leaves other URLs as they are', () => {
    expect(redactRequestUrl({ url: '/rest/entity/account/1?myapiKey=x' }).url).toBe(
      '/rest/entity/account/1?myapiKey=x',
    );
    expect(redactRequestUrl<{ url?: string }>({}).url).toBeUndefined();
  });
});
