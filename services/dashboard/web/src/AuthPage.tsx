import { useState, type FormEvent } from "react";
import { api, ApiError } from "./api.ts";

export function AuthPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [mode, setMode] = useState<"signin" | "signup">("signup");
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
