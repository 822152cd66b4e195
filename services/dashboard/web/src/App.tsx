import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { Navigate, Route, Routes } from "react-router";
import { api, setCsrfToken, whenSignedOut, type Vocabulary } from "./api.ts";
import { AuthPage } from "./auth/AuthPage.tsx";
import { AppShell } from "./shell/AppShell.tsx";
import { NotFoundPage } from "./shell/NotFoundPage.tsx";
import { KeysPage } from "./keys/KeysPage.tsx";
import { AudiencesPage } from "./audiences/AudiencesPage.tsx";
import { PlaygroundPage } from "./playground/PlaygroundPage.tsx";
import { RequestDetailPage } from "./requests/RequestDetailPage.tsx";
import { RequestsPage } from "./requests/RequestsPage.tsx";
import { WebhooksPage } from "./webhooks/WebhooksPage.tsx";

// The chart library is most of the bundle: only the usage and calibration pages load it.
const UsagePage = lazy(() => import("./usage/UsagePage.tsx").then((m) => ({ default: m.UsagePage })));
const CalibrationPage = lazy(() => import("./calibration/CalibrationPage.tsx").then((m) => ({ default: m.CalibrationPage })));

/**
 * The session decides what renders; the URL decides which page. A signed-out visitor sees the
 * sign-in form at whatever address they opened, so signing in lands on that very page.
 */
export function App() {
  const [me, setMe] = useState<{ email: string } | null | undefined>(undefined);
  const [vocabulary, setVocabulary] = useState<Vocabulary | null>(null);

  const refresh = useCallback(async () => {
    try {
      const who = await api<{ email: string; csrfToken: string }>("GET", "/me");
      setCsrfToken(who.csrfToken);
      setMe({ email: who.email });
    } catch {
      setMe(null);
    }
  }, []);
  useEffect(() => {
    whenSignedOut(() => setMe(null));
    void refresh();
    void api<Vocabulary>("GET", "/vocabulary").then(setVocabulary);
  }, [refresh]);

  if (me === undefined || !vocabulary) return <div className="loading">Loading…</div>;
  if (me === null) return <AuthPage onSignedIn={refresh} />;
  const signOut = async () => {
    await api("POST", "/signout");
    setMe(null);
  };
  return (
    <Routes>
      <Route element={<AppShell email={me.email} onSignOut={signOut} />}>
        <Route index element={<Navigate to="/playground" replace />} />
        <Route path="playground" element={<PlaygroundPage vocabulary={vocabulary} />} />
        <Route path="keys" element={<KeysPage />} />
        <Route path="audiences" element={<AudiencesPage vocabulary={vocabulary} />} />
        <Route path="requests" element={<RequestsPage />} />
        <Route path="requests/:id" element={<RequestDetailPage />} />
        <Route path="calibration" element={<Suspense fallback={<p className="loading">Loading…</p>}><CalibrationPage /></Suspense>} />
        <Route path="webhooks" element={<WebhooksPage />} />
        <Route path="usage" element={<Suspense fallback={<p className="loading">Loading…</p>}><UsagePage /></Suspense>} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
