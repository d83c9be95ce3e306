import { loadOidcProviders } from './oidc.config';

const entry = {
  name: 'corp',
  issuer: 'https://login.example.com',
  clientId: 'atrium',
  organization: 'Demo',
  businessUnit: 'Main',
  redirectUrls: ['https://app.example.com/after-login'],
};
const load = (value: unknown) => loadOidcProviders({ OIDC_PROVIDERS: JSON.stringify(value) });

describe('loadOidcProviders', () => {
  it('reads providers with their defaults, the first being the default provider', () => {
    expect(load([entry, { ...entry, name: 'other' }])).toEqual([
      {
        ...entry,
        displayName: 'corp',
        clientSecret: undefined,
        scopes: 'openid profile email',
        audience: 'atrium',
        isDefault: true,
        autoProvision: true,
        roles: [],
      },
      expect.objectContaining({ name: 'other', isDefault: false }),
    ]);
    expect(load([entry, { ...entry, name: 'other', default: true }])[1].isDefault).toBe(true);
    expect(loadOidcProviders({})).toEqual([]);
  });

  it('refuses what it cannot use, naming the entry and the problem', () => {
    expect(() => loadOidcProviders({ OIDC_PROVIDERS: '[{' })).toThrow(/OIDC_PROVIDERS is not JSON/);
    expect(() => load(entry)).toThrow(/must be a JSON array/);
    expect(() => load([{ ...entry, issuer: 'not a url' }])).toThrow(
      /OIDC_PROVIDERS\[0\]: issuer must be/,
    );
    expect(() => load([{ ...entry, clientId: undefined }])).toThrow(/\[0\]: clientId/);
    expect(() => load([{ ...entry, colour: 'red' }])).toThrow(/property colour should not exist/);
    expect(() => load([{ ...entry, roles: 'member' }])).toThrow(/\[0\]: roles must be an array/);
    expect(() => load([{ ...entry, roles: [''] }])).toThrow(/\[0\]: each value in roles must/);
    expect(() => load([{ ...entry, issuer: 'http://login.example.com' }])).toThrow(
      /must be https \(http only on loopback\)/,
    );
    expect(load([{ ...entry, issuer: 'http://127.0.0.1:4000' }])[0].issuer).toBe(
      'http://127.0.0.1:4000',
    );
    expect(() => load([entry, entry])).toThrow(/two providers are named "corp"/);
    expect(() =>
      load([
        { ...entry, default: true },
        { ...entry, name: 'b', default: true },
      ]),
    ).toThrow(/more than one provider is the default/);
  });
});
