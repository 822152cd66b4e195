import { useEffect, useState, type FormEvent } from "react";
import { api, ApiError, type Key } from "./api.ts";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

export function KeysPage() {
  const [keys, setKeys] = useState<Key[]>([]);
  const [name, setName] = useState("");
  const [fresh, setFresh] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState("");
  const load = () => api<{ keys: Key[] }>("GET", "/keys").then((r) => setKeys(r.keys));
  useEffect(() => void load(), []);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError("");
    try {
      const created = await api<{ name: string; key: string }>("POST", "/keys", { name });
      setFresh(created);
      setCopied(false);
      setName("");
      await load();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The key could not be created.");
    }
  };
  const revoke = async (id: string) => {
    await api("POST", `/keys/${id}/revoke`);
    await load();
  };

  return (
    <section>
      <h1>API keys</h1>
      <form className="row" onSubmit={create}>
        <input name="keyName" placeholder="Key name, e.g. production server" value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} />
        <button type="submit">Create key</button>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
      {fresh && (
        <div className="card fresh-key" data-testid="fresh-key">
          <p><strong>{fresh.name}</strong>: copy this key now. It is shown only once.</p>
          <code className="raw-key">{fresh.key}</code>
          <div className="row">
            <button onClick={async () => { await navigator.clipboard.writeText(fresh.key).catch(() => {}); setCopied(true); }}>{copied ? "Copied" : "Copy"}</button>
            <button className="link" onClick={() => setFresh(null)}>Done</button>
          </div>
        </div>
      )}
      <table className="keys">
        <thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th /></tr></thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id} className={k.revokedAt ? "revoked" : ""} data-key-name={k.name}>
              <td>{k.name}</td>
              <td><code>{k.prefix}…{k.lastFour}</code></td>
              <td>{when(k.createdAt)}</td>
              <td>{when(k.lastUsedAt)}</td>
              <td>{k.revokedAt ? <span className="badge">revoked</span> : <button className="danger" onClick={() => revoke(k.id)}>Revoke</button>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
