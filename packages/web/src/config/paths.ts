/**
 * Every client route in one place. `menuOrder` orders the navigation menu (SPEC §2); routes with
 * 0 or none are reachable but hidden from the menu.
 */
export interface RouteEntry {
  path: string;
  /** i18n key of the menu label. */
  labelKey: string;
  menuOrder?: number;
}

export const paths = {
  home: { path: '/', labelKey: 'nav.home', menuOrder: 1 },
} satisfies Record<string, RouteEntry>;

/** The menu entries, in their configured order. */
export function menuEntries(): RouteEntry[] {
  return Object.values<RouteEntry>(paths)
    .filter((entry) => (entry.menuOrder ?? 0) > 0)
    .sort((a, b) => (a.menuOrder ?? 0) - (b.menuOrder ?? 0));
}

/** External addresses the layout links to. */
export const externalLinks = {
  featureRequest: 'https://github.com/linkaudit/linkaudit/issues/new?labels=feature-request',
  localisation: 'https://github.com/linkaudit/linkaudit/tree/main/packages/web/public/locales',
} as const;
