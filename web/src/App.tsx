// Providers and top-level routes (docs/product.md §2):
//   /login        sign in / sign up; redirects to /dashboard when signed in
//   /dashboard/*  the shell with its screens; redirects to /login when signed out
//   /             to /dashboard or /login;  anything else -> /
// Screens are added in shell/DashboardRoutes.tsx.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { createQueryClient } from './api/queries.ts';
import { Reachability, ReachabilityContext } from './api/reachability.ts';
import { AuthProvider, useAuth } from './auth/AuthProvider.tsx';
import { FullPageSpinner } from './components/Spinner.tsx';
import { Toaster } from './components/toast/index.ts';
import { ConfirmProvider } from './components/confirm/ConfirmProvider.tsx';
import { RealtimeProvider } from './realtime/RealtimeProvider.tsx';
import { LoginScreen } from './screens/LoginScreen.tsx';
import { PendingScreen } from './screens/PendingScreen.tsx';

// The shell and its screens are a chunk of their own: the sign-in page (what a phone opens first, on
// the greenhouse's Wi-Fi) loads only what signing in needs (docs/performance.md).
const DashboardShell = lazy(() => import('./shell/DashboardShell.tsx').then((m) => ({ default: m.DashboardShell })));

export function App() {
  const [reachability] = useState(() => new Reachability());
  const [queryClient] = useState(() => createQueryClient(reachability));
  return (
    <ReachabilityContext.Provider value={reachability}>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AuthProvider>
          <RealtimeProvider>
            <ConfirmProvider>
              <AppRoutes />
            </ConfirmProvider>
          </RealtimeProvider>
        </AuthProvider>
      </BrowserRouter>
      <Toaster />
    </QueryClientProvider>
    </ReachabilityContext.Provider>
  );
}

function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<SignedOutOnly><LoginScreen /></SignedOutOnly>} />
      <Route
        path="/dashboard/*"
        element={
          <SignedInOnly>
            <Suspense fallback={<FullPageSpinner />}>
              <DashboardShell />
            </Suspense>
          </SignedInOnly>
        }
      />
      <Route path="/" element={<HomeRedirect />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

function HomeRedirect() {
  const { status } = useAuth();
  if (status === 'loading') return <FullPageSpinner />;
  return <Navigate to={status === 'signedIn' ? '/dashboard' : '/login'} replace />;
}

function SignedInOnly({ children }: { children: ReactNode }) {
  const { status, user } = useAuth();
  if (status === 'loading') return <FullPageSpinner />;
  if (status !== 'signedIn') return <Navigate to="/login" replace />;
  // The gateway refuses a pending account everything but its profile: it waits on its own screen.
  if (user?.pending) return <PendingScreen />;
  return children;
}

function SignedOutOnly({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedIn') return <Navigate to="/dashboard" replace />;
  return children;
}
