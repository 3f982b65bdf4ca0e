import type { ComponentChildren, TargetedMouseEvent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * Path routing under /dashboard/. Only the SPA's own pages are handled here;
 * the service's paths (/dashboard/login, /dashboard/logout, /dashboard/auth/*)
 * are always full-page navigations.
 */

export const BASE = import.meta.env.BASE_URL; // "/dashboard/"

export const PAGES = [
  { route: 'keys', label: 'API keys' },
  { route: 'usage', label: 'Usage' },
  { route: 'wallets', label: 'Wallets' },
  { route: 'intents', label: 'Intents' },
  { route: 'webhooks', label: 'Webhooks' },
  { route: 'yields', label: 'Yields' },
  { route: 'standing', label: 'Standing intents' },
] as const;

export type Route = (typeof PAGES)[number]['route'];
export type RouteLocation = { route: Route } | { route: 'not-found'; path: string };

export const DEFAULT_ROUTE: Route = 'keys';

export function pathOf(route: Route): string {
  return `${BASE}${route}`;
}

/** The page a pathname shows; the bare base (/dashboard or /dashboard/) shows the default page. */
export function parsePath(pathname: string): RouteLocation {
  const base = BASE.replace(/\/$/, '');
  if (pathname === base || pathname === BASE || pathname === `${BASE}index.html`) return { route: DEFAULT_ROUTE };
  if (!pathname.startsWith(BASE)) return { route: 'not-found', path: pathname };
  const rest = pathname.slice(BASE.length).replace(/\/+$/, '');
  const page = PAGES.find((p) => p.route === rest);
  return page ? { route: page.route } : { route: 'not-found', path: pathname };
}

const CHANGE = 'dashboard:navigate';

export function navigate(path: string, replace = false): void {
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.dispatchEvent(new Event(CHANGE));
}

/** The current location, following pushState navigations and the back/forward buttons. */
export function useLocation(): RouteLocation {
  const [location, setLocation] = useState<RouteLocation>(() => parsePath(window.location.pathname));
  useEffect(() => {
    const update = () => setLocation(parsePath(window.location.pathname));
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, []);
  return location;
}

interface LinkProps {
  route: Route;
  class?: string;
  'aria-current'?: 'page';
  children: ComponentChildren;
}

/** A real link to one of the SPA's pages, followed without reloading on a plain click. */
export function Link({ route, children, ...rest }: LinkProps) {
  const href = pathOf(route);
  const onClick = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (window.location.pathname !== href) navigate(href);
  };
  return (
    <a {...rest} href={href} onClick={onClick}>
      {children}
    </a>
  );
}
