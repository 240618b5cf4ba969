import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, useLocation } from 'react-router';
import { paths, type RouteEntry } from '../../config/paths';

/** The route a path belongs to (SPEC §2 routes; /WhyNotTranslated matches in any case). */
export function routeOf(pathname: string): RouteEntry | undefined {
  return Object.values<RouteEntry>(paths).find((entry) =>
    matchPath({ path: entry.path, caseSensitive: false, end: true }, pathname),
  );
}

/**
 * Each route names the browser tab in the interface language ("Scan · LinkAudit", "扫描 ·
 * LinkAudit"); home keeps the product's own title.
 */
export function useRouteTitle(): void {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => {
    const entry = routeOf(pathname);
    document.title =
      !entry || entry === paths.home
        ? t('nav.siteTitle')
        : t('nav.pageTitle', { page: t(entry.labelKey) });
  }, [pathname, t, i18n.language]);
}
