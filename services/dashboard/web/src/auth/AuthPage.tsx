import { useState, type FormEvent } from "react";
import { useLocation } from "react-router";
import { api, ApiError } from "../api.ts";
import { pageAt } from "../shell/pages.ts";
import { usePageTitle } from "../ui/use-page-title.ts";

/**
 * Sign up or sign in, at whatever address was opened: the router then shows that page. A deep
 * link suggests an existing account, so it starts on "Sign in"; the bare address on "Sign up".
 */
export function AuthPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const { pathname } = useLocation();
  const target = pageAt(pathname);
  const [mode, setMode] = useState<"signin" | "signup">(target ? "signin" : "signup");
  usePageTitle(mode === "signup" ? "Sign up" : "Sign in");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      await api("POST", mode === "signup" ? "/signup" : "/signin", { email, password });
      await onSignedIn();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Something went wrong.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="auth">
      <h1>adrank</h1>
      <p className="muted">Rank ad creatives for the audience you sell to.</p>
      <form onSubmit={submit} className="card">
        <h2>{mode === "signup" ? "Create your account" : "Sign in"}</h2>
        {target && <p className="muted" data-testid="continue-to">{mode === "signup" ? "Once signed up, you go on to" : "Sign in to continue to"} {target.label}.</p>}
        <label>Email<input name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required /></label>
        <label>Password<input name="password" type="password" autoComplete={mode === "signup" ? "new-password" : "current-password"} value={password} onChange={(e) => setPassword(e.target.value)} required minLength={mode === "signup" ? 10 : undefined} /></label>
        {error && <p className="error" role="alert">{error}</p>}
        <button type="submit" disabled={busy}>{mode === "signup" ? "Sign up" : "Sign in"}</button>
        <button type="button" className="link" onClick={() => setMode(mode === "signup" ? "signin" : "signup")}>
          {mode === "signup" ? "I have an account" : "Create an account"}
        </button>
      </form>
    </div>
  );
}
