/**
 * Every client route in one place (SPEC §2). `menuOrder` orders the navigation menu; routes with
 * 0 or none are reachable but hidden from it. `protected` routes send a visitor to sign in first;
 * `adminOnly` menu entries show for operators only.
 */
export interface RouteEntry {
  path: string;
  /** i18n key of the menu label and page title. */
  labelKey: string;
  menuOrder?: number;
  protected?: boolean;
  adminOnly?: boolean;
}

export const paths = {
  home: { path: '/', labelKey: 'nav.home', menuOrder: 1 },
  scan: { path: '/scan', labelKey: 'nav.scan', menuOrder: 2, protected: true },
  schedule: { path: '/schedule', labelKey: 'nav.schedule', menuOrder: 3, protected: true },
  features: { path: '/features', labelKey: 'nav.features', menuOrder: 4 },
  pricing: { path: '/pricing', labelKey: 'nav.pricing', menuOrder: 5 },
  screenshots: { path: '/screenshots', labelKey: 'nav.screenshots', menuOrder: 6 },
  faq: { path: '/faq', labelKey: 'nav.faq', menuOrder: 7 },
  about: { path: '/about', labelKey: 'nav.about', menuOrder: 8 },
  admin: { path: '/admin', labelKey: 'nav.admin', menuOrder: 9, protected: true, adminOnly: true },
  whyNotTranslated: { path: '/WhyNotTranslated', labelKey: 'nav.whyNotTranslated', menuOrder: 0 },
  // The sample report is open to visitors (SPEC §6); the server decides who may read a report.
  report: { path: '/report/:scanId', labelKey: 'nav.report' },
  printReport: { path: '/printreport/:scanId', labelKey: 'nav.printReport' },
  reportingService: {
    path: '/reportingservice/:scanId',
    labelKey: 'nav.reportingService',
    protected: true,
  },
  // SPEC §7's viewer address (query reportTypeID=0 and userScanId); the same viewer.
  reportViewer: {
    path: '/app/reports/ReportViewer',
    labelKey: 'nav.reportingService',
    protected: true,
  },
  signIn: { path: '/signin', labelKey: 'nav.signIn' },
  login: { path: '/login', labelKey: 'nav.signIn' },
  join: { path: '/join', labelKey: 'nav.join' },
  forgotPassword: { path: '/forgotpassword', labelKey: 'nav.forgotPassword' },
  forgotPasswordFor: { path: '/forgotpassword/:email', labelKey: 'nav.forgotPassword' },
  resetPassword: { path: '/resetpassword', labelKey: 'nav.resetPassword' },
  confirmEmail: { path: '/confirmemail', labelKey: 'nav.confirmEmail' },
  manage: { path: '/manage', labelKey: 'nav.manage', protected: true },
  registerExternal: { path: '/registerExternal', labelKey: 'nav.registerExternal' },
} satisfies Record<string, RouteEntry>;

/** The menu entries, in their configured order; operator entries only for admins. */
export function menuEntries(isAdmin = false): RouteEntry[] {
  return Object.values<RouteEntry>(paths)
    .filter((entry) => (entry.menuOrder ?? 0) > 0 && (isAdmin || !entry.adminOnly))
    .sort((a, b) => (a.menuOrder ?? 0) - (b.menuOrder ?? 0));
}

/** `/report/:scanId` with its parameters filled in. */
export function pathTo(entry: RouteEntry, params: Record<string, string> = {}): string {
  return entry.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** `/signin?returnUrl=…`: where to come back after signing in. */
export function signInPath(returnUrl?: string): string {
  return returnUrl && returnUrl !== paths.home.path
    ? `${paths.signIn.path}?returnUrl=${encodeURIComponent(returnUrl)}`
    : paths.signIn.path;
}

/** A return address from the query, only when it is a path of this site (no open redirect). */
export function safeReturnUrl(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
    ? value
    : paths.home.path;
}

/** The scan screen with the home page's address carried over. */
export function scanPathFor(url: string): string {
  return `${paths.scan.path}?url=${encodeURIComponent(url)}`;
}

/** External addresses the layout links to. */
export const externalLinks = {
  featureRequest: 'https://github.com/linkaudit/linkaudit/issues/new?labels=feature-request',
  localisation: 'https://github.com/linkaudit/linkaudit/tree/main/packages/web/public/locales',
} as const;
