import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { api, ApiError, type Key } from "../api.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { useToast } from "../ui/toasts.tsx";
import { usePageTitle } from "../ui/use-page-title.ts";
import { CreateKeyForm, type CreatedKey } from "./CreateKeyForm.tsx";
import { FreshKeyCard } from "./FreshKeyCard.tsx";
import { KeyRow } from "./KeyRow.tsx";
import { RevokeKeyDialog } from "./RevokeKeyDialog.tsx";

export function KeysPage() {
  usePageTitle("API keys");
  const notify = useToast();
  const [keys, setKeys] = useState<Key[] | null>(null);
  const [fresh, setFresh] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const load = useCallback(() => api<{ keys: Key[] }>("GET", "/keys").then((r) => setKeys(r.keys)), []);
  useEffect(() => void load(), [load]);

  const created = async (key: CreatedKey) => {
    setFresh(key);
    notify(`Key “${key.name}” created: copy it now.`);
    await load();
  };
  const revoke = async (key: Key) => {
    try {
      await api("POST", `/keys/${key.id}/revoke`);
      notify(`Key “${key.name}” revoked.`);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : "The key could not be revoked.", "error");
    }
    setRevoking(null);
    await load();
  };

  const ownKeys = keys?.filter((k) => !k.playground) ?? [];
  return (
    <section>
      <h1>API keys</h1>
      <p className="muted lead">A key lets your servers call the ranking API. Each one is billed to this account; revoke a key the moment it may have leaked.</p>
      <CreateKeyForm onCreated={created} />
      {fresh && <FreshKeyCard created={fresh} onDone={() => setFresh(null)} />}
      {keys && ownKeys.length === 0 && !fresh && (
        <EmptyState title="No API keys yet" testId="keys-empty">
          <p>Name your first key above, for example after the server that will use it. You will see the key once, so have a secret store ready.</p>
          <p className="muted">Just exploring? The <Link to="/playground">playground</Link> needs no key.</p>
        </EmptyState>
      )}
      {keys && keys.length > 0 && (
        <table className="keys">
          <thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th><span className="visually-hidden">State</span></th></tr></thead>
          <tbody>
            {keys.map((k) => <KeyRow key={k.id} apiKey={k} onRevoke={setRevoking} />)}
          </tbody>
        </table>
      )}
      <RevokeKeyDialog apiKey={revoking} onConfirm={revoke} onCancel={() => setRevoking(null)} />
    </section>
  );
}
