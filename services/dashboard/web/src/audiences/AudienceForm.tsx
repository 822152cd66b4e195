import { useState, type FormEvent } from "react";
import { api, ApiError, type Audience, type Vocabulary } from "../api.ts";
import { DemographicSelect } from "./DemographicSelect.tsx";

interface Draft {
  name: string;
  description: string;
  demographics: Record<string, string>;
}
const draftOf = (a: Audience | null): Draft => (a ? { name: a.name, description: a.description ?? "", demographics: a.demographics } : { name: "", description: "", demographics: {} });

/**
 * Create an audience, or edit `editing`. The parent remounts it (a `key`) to switch between
 * them, so the draft never carries over from one audience to another.
 */
export function AudienceForm({ vocabulary, editing, onSaved, onCancel }: { vocabulary: Vocabulary; editing: Audience | null; onSaved: (saved: Audience) => Promise<void>; onCancel: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(editing));
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError("");
    setBusy(true);
    const body = { name: draft.name, ...(draft.description ? { description: draft.description } : {}), demographics: Object.fromEntries(Object.entries(draft.demographics).filter(([, v]) => v)) };
    try {
      const saved = await api<Audience>(editing ? "PUT" : "POST", editing ? `/audiences/${editing.id}` : "/audiences", body);
      setDraft(draftOf(null));
      await onSaved(saved);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The audience could not be saved.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card audience-form" onSubmit={save} aria-label={editing ? `Edit ${editing.name}` : "New audience"}>
      <h2>{editing ? `Edit “${editing.name}”` : "New audience"}</h2>
      <div className="grid two">
        <label>Name<input name="audienceName" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} required maxLength={200} /></label>
        <label>Description<input name="audienceDescription" value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} placeholder="optional, e.g. weekend runners in their thirties" /></label>
      </div>
      <p className="muted small">Demographics left unset use the API's defaults. The name in brackets is the field to send in <code>audience.demographics</code>.</p>
      <div className="grid">
        {Object.entries(vocabulary.demographics).map(([field, values]) => (
          <DemographicSelect key={field} field={field} values={values} value={draft.demographics[field] ?? ""} onChange={(v) => setDraft({ ...draft, demographics: { ...draft.demographics, [field]: v } })} />
        ))}
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="row">
        <button type="submit" disabled={busy}>{editing ? "Save changes" : "Create audience"}</button>
        {editing && <button type="button" className="link" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  );
}
