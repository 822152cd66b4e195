import { useState, type FormEvent } from "react";
import { api, ApiError } from "../api.ts";

export interface CreatedKey {
  id: string;
  name: string;
  /** The raw key: this answer is the only time the browser sees it. */
  key: string;
}

/** Name a new key and create it; the parent shows the raw key once. */
export function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedKey) => Promise<void> }) {
  const [name, setName] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError("");
    setBusy(true);
    try {
      const created = await api<CreatedKey>("POST", "/keys", { name });
      setName("");
      await onCreated(created);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The key could not be created.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="row" onSubmit={create}>
      <label className="grow">
        <span className="visually-hidden">Key name</span>
        <input name="keyName" placeholder="Key name, e.g. production server" value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} />
      </label>
      <button type="submit" disabled={busy}>Create key</button>
      {error && <p className="error full" role="alert">{error}</p>}
    </form>
  );
}
