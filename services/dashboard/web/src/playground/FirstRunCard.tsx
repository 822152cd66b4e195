import { useEffect, useState } from "react";
import { Link } from "react-router";
import { api, type Usage } from "../api.ts";

/**
 * Onboarding for an account that has used nothing yet: its real credits and the two first
 * steps. Renders nothing once credits were used (or after "Got it").
 */
export function FirstRunCard({ hidden }: { hidden: boolean }) {
  const [balance, setBalance] = useState<Usage["balance"] | null>(null);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => void api<Usage>("GET", "/usage").then((u) => setBalance(u.balance)).catch(() => {}), []);
  if (hidden || dismissed || !balance || balance.used > 0 || balance.reserved > 0) return null;
  return (
    <aside className="card onboarding" data-testid="onboarding" aria-label="Getting started">
      {balance.available > 0 ? (
        <p>
          <strong>Welcome! You have {balance.available} credit{balance.available === 1 ? "" : "s"}.</strong> Try the playground below: drop two or more ad
          images and rank them for an audience. Or <Link to="/keys">create a key</Link> to call the API from your own code.
        </p>
      ) : (
        <p>
          <strong>Welcome! Your account has no credits yet,</strong> so ranking here or through the API is refused until credits are granted. You can already{" "}
          <Link to="/keys">create a key</Link> and <Link to="/audiences">save audiences</Link>.
        </p>
      )}
      <button className="link" onClick={() => setDismissed(true)}>Got it</button>
    </aside>
  );
}
