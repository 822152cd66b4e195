import { useEffect, useState, type FormEvent } from "react";
import { api, ApiError, type Audience, type Vocabulary } from "./api.ts";

const label = (field: string) => field.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).replace(/^./, (c) => c.toUpperCase());
const empty = { name: "", description: "", demographics: {} as Record<string, string> };

export function AudiencesPage({ vocabulary }: { vocabulary: Vocabulary }) {
  const [audiences, setAudiences] = useState<Audience[]>([]);
  const [form, setForm] = useState(empty);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState("");
  const load = () => api<{ audiences: Audience[] }>("GET", "/audiences").then((r) => setAudiences(r.audiences));
  useEffect(() => void load(), []);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError("");
    const body = { name: form.name, ...(form.description ? { description: form.description } : {}), demographics: Object.fromEntries(Object.entries(form.demographics).filter(([, v]) => v)) };
    try {
      await api(editing ? "PUT" : "POST", editing ? `/audiences/${editing}` : "/audiences", body);
      setForm(empty);
      setEditing(null);
      await load();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The audience could not be saved.");
    }
  };

  return (
    <section>
      <h1>Saved audiences</h1>
      <form className="card audience-form" onSubmit={save}>
        <label>Name<input name="audienceName" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required /></label>
        <label>Description<input name="audienceDescription" value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} /></label>
        <div className="grid">
          {Object.entries(vocabulary.demographics).map(([field, values]) => (
            <label key={field}>
              {label(field)}
              <select name={field} value={form.demographics[field] ?? ""} onChange={(e) => setForm({ ...form, demographics: { ...form.demographics, [field]: e.target.value } })}>
                <option value="">default</option>
                {values.map((v) => <option key={v} value={v}>{v}</option>)}
              </select>
            </label>
          ))}
        </div>
        {error && <p className="error" role="alert">{error}</p>}
        <div className="row">
          <button type="submit">{editing ? "Save changes" : "Create audience"}</button>
          {editing && <button type="button" className="link" onClick={() => { setEditing(null); setForm(empty); }}>Cancel</button>}
        </div>
      </form>
      <ul className="audiences">
        {audiences.map((a) => (
          <li key={a.id} className="card" data-audience-name={a.name}>
            <strong>{a.name}</strong> <code>{a.id}</code>
            {a.description && <p className="muted">{a.description}</p>}
            <p className="muted">{Object.entries(a.demographics).map(([k, v]) => `${label(k)}: ${v}`).join(" · ") || "default demographics"}</p>
            <div className="row">
              <button className="link" onClick={() => { setEditing(a.id); setForm({ name: a.name, description: a.description ?? "", demographics: a.demographics }); }}>Edit</button>
              <button className="danger" onClick={async () => { await api("DELETE", `/audiences/${a.id}`); await load(); }}>Delete</button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
