import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { paths, type RouteEntry } from '../config/paths';
import { RequireAuth } from '../features/auth/components/RequireAuth';
import { AppLayout } from './layout/AppLayout';

const reportViewer = lazy(() => import('../features/reports/viewer/ReportViewerPage'));

/** Each screen of SPEC §2, loaded when first visited. */
const screens: Array<[RouteEntry, LazyExoticComponent<ComponentType>]> = [
  [paths.home, lazy(() => import('../features/home/components/HomePage'))],
  [paths.scan, lazy(() => import('../features/scans/components/ScanPage'))],
  [paths.report, lazy(() => import('../features/reports/components/ReportPage'))],
  [paths.printReport, lazy(() => import('../features/reports/components/PrintReportPage'))],
  [paths.reportingService, reportViewer],
  [paths.reportViewer, reportViewer],
  [paths.schedule, lazy(() => import('../features/schedules/components/SchedulePage'))],
  [paths.admin, lazy(() => import('../features/admin/components/AdminPage'))],
  [paths.about, lazy(() => import('../features/info/components/AboutPage'))],
  [paths.faq, lazy(() => import('../features/info/components/FaqPage'))],
  [paths.features, lazy(() => import('../features/info/components/FeaturesPage'))],
  [paths.pricing, lazy(() => import('../features/billing/components/PricingPage'))],
  [paths.screenshots, lazy(() => import('../features/info/components/ScreenshotsPage'))],
  [paths.whyNotTranslated, lazy(() => import('../features/info/components/WhyNotTranslatedPage'))],
  [paths.signIn, lazy(() => import('../features/auth/components/SignInPage'))],
  [paths.join, lazy(() => import('../features/auth/components/JoinPage'))],
  [paths.forgotPassword, lazy(() => import('../features/auth/components/ForgotPasswordPage'))],
  [paths.forgotPasswordFor, lazy(() => import('../features/auth/components/ForgotPasswordPage'))],
  [paths.resetPassword, lazy(() => import('../features/auth/components/ResetPasswordPage'))],
  [paths.confirmEmail, lazy(() => import('../features/auth/components/ConfirmEmailPage'))],
  [paths.manage, lazy(() => import('../features/auth/components/ManagePage'))],
  [paths.registerExternal, lazy(() => import('../features/auth/components/RegisterExternalPage'))],
];

function screenRoute([entry, Screen]: (typeof screens)[number]): RouteObject {
  return {
    path: entry.path,
    element: entry.protected ? (
      <RequireAuth>
        <Screen />
      </RequireAuth>
    ) : (
      <Screen />
    ),
  };
}

/** /login is the other reading of the sign-in address (SPEC §2); the query (returnUrl) goes along. */
function LoginRedirect() {
  const location = useLocation();
  return <Navigate to={paths.signIn.path + location.search} replace />;
}

/** Every screen is loaded lazily; unknown paths go back to the home page (SPEC §2). */
export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      ...screens.map(screenRoute),
      { path: paths.login.path, element: <LoginRedirect /> },
      { path: '*', element: <Navigate to={paths.home.path} replace /> },
    ],
  },
]);
