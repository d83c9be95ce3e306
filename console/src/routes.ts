import { useEffect, useState } from 'react';

/** The console's screens, each at a hash of its own (a link, a new tab, the back button). */
export const SECTIONS = {
  fetch: 'FETCH',
  workflows: 'Workflows',
  files: 'Files',
  'api-keys': 'API keys',
  access: 'Access',
  audit: 'Audit',
  webhooks: 'Webhooks',
  jobs: 'Jobs',
} as const;
export type Section = keyof typeof SECTIONS;

export type Route =
  | { screen: 'home' }
  | { screen: 'password' }
  | { screen: 'section'; section: Section }
  | { screen: 'records'; type: string }
  /** A record's form (or its history); no key: a new one. */
  | { screen: 'record'; type: string; key?: number; tab?: 'history' };

export function parseRoute(hash: string): Route {
  const [first, type, key, tab] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (first === 'password') return { screen: 'password' };
  if (Object.hasOwn(SECTIONS, first)) return { screen: 'section', section: first as Section };
  if (first === 'records' && type) {
    if (key === undefined) return { screen: 'records', type };
    if (key === 'new') return { screen: 'record', type };
    if (/^\d+$/.test(key)) {
      return tab === 'history'
        ? { screen: 'record', type, key: Number(key), tab }
        : { screen: 'record', type, key: Number(key) };
    }
  }
  return { screen: 'home' };
}

export function hrefOf(route: Route): string {
  switch (route.screen) {
    case 'home':
      return '#/';
    case 'password':
      return '#/password';
    case 'section':
      return `#/${route.section}`;
    case 'records':
      return `#/records/${encodeURIComponent(route.type)}`;
    case 'record':
      return `#/records/${encodeURIComponent(route.type)}/${route.key ?? 'new'}${route.tab ? `/${route.tab}` : ''}`;
  }
}

export const navigate = (route: Route) => {
  location.hash = hrefOf(route);
};

/** The route of the page's hash, following it as it changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}
