import { lazy } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { paths } from '../config/paths';
import { AppLayout } from './layout/AppLayout';

const HomePage = lazy(() => import('../features/home/components/HomePage'));

/** Every screen is loaded lazily; unknown paths go back to the home page (SPEC §2). */
export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { path: paths.home.path, element: <HomePage /> },
      { path: '*', element: <Navigate to={paths.home.path} replace /> },
    ],
  },
]);
