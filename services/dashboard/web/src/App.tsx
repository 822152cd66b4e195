import { useCallback, useEffect, useState } from "react";
import { api, setCsrfToken, type Vocabulary } from "./api.ts";
import { AuthPage } from "./AuthPage.tsx";
import { KeysPage } from "./KeysPage.tsx";
import { AudiencesPage } from "./AudiencesPage.tsx";
import { UsagePage } from "./UsagePage.tsx";
import { PlaygroundPage } from "./PlaygroundPage.tsx";

type Tab = "playground" | "keys" | "audiences" | "usage";
const TABS: Array<[Tab, string]> = [["playground", "Playground"], ["keys", "API keys"], ["audiences", "Audiences"], ["usage", "Credits & usage"]];

export function App() {
  const [me, setMe] = useState<{ email: string } | null | undefined>(undefined);
  const [tab, setTab] = useState<Tab>("keys");
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
    void refresh();
    void api<Vocabulary>("GET", "/vocabulary").then(setVocabulary);
  }, [refresh]);

  if (me === undefined || !vocabulary) return <div className="loading">Loading…</div>;
  if (me === null) return <AuthPage onSignedIn={refresh} />;
  return (
    <div className="shell">
      <header>
        <strong className="brand">adrank</strong>
        <nav>
          {TABS.map(([id, label]) => (
            <button key={id} className={tab === id ? "tab active" : "tab"} onClick={() => setTab(id)}>
              {label}
            </button>
          ))}
        </nav>
        <span className="who">{me.email}</span>
        <button className="link" onClick={async () => { await api("POST", "/signout"); setMe(null); }}>Sign out</button>
      </header>
      <main>
        {tab === "keys" && <KeysPage />}
        {tab === "audiences" && <AudiencesPage vocabulary={vocabulary} />}
        {tab === "usage" && <UsagePage />}
        {tab === "playground" && <PlaygroundPage vocabulary={vocabulary} />}
      </main>
    </div>
  );
}
