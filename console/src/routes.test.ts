import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute, Route } from './routes';

describe('routes', () => {
  it.each<[string, Route]>([
    ['', { screen: 'home' }],
    ['#/', { screen: 'home' }],
    ['#/fetch', { screen: 'section', section: 'fetch' }],
    ['#/api-keys', { screen: 'section', section: 'api-keys' }],
    ['#/password', { screen: 'password' }],
    ['#/records/invoice', { screen: 'records', type: 'invoice' }],
    ['#/records/invoice/new', { screen: 'record', type: 'invoice' }],
    ['#/records/invoice/42', { screen: 'record', type: 'invoice', key: 42 }],
    [
      '#/records/invoice/42/history',
      { screen: 'record', type: 'invoice', key: 42, tab: 'history' },
    ],
  ])('reads %j', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
    if (hash.length > 2) expect(hrefOf(route)).toBe(hash);
  });

  it.each(['#/records/invoice/4x2', '#/records', '#/nowhere', '#/constructor'])(
    'leads %j home',
    (hash) => expect(parseRoute(hash)).toEqual({ screen: 'home' }),
  );
});
