import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { api, ApiError, type Audience, type Vocabulary } from "../api.ts";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { EmptyState } from "../ui/EmptyState.tsx";
import { useToast } from "../ui/toasts.tsx";
import { usePageTitle } from "../ui/use-page-title.ts";
import { AudienceCard } from "./AudienceCard.tsx";
import { AudienceForm } from "./AudienceForm.tsx";

export function AudiencesPage({ vocabulary }: { vocabulary: Vocabulary }) {
  usePageTitle("Audiences");
  const notify = useToast();
  const [audiences, setAudiences] = useState<Audience[] | null>(null);
  const [editing, setEditing] = useState<Audience | null>(null);
  const [deleting, setDeleting] = useState<Audience | null>(null);
  const load = useCallback(() => api<{ audiences: Audience[] }>("GET", "/audiences").then((r) => setAudiences(r.audiences)), []);
  useEffect(() => void load(), [load]);

  const saved = async (audience: Audience) => {
    notify(editing ? `Audience “${audience.name}” saved.` : `Audience “${audience.name}” created.`);
    setEditing(null);
    await load();
  };
  const remove = async (audience: Audience) => {
    try {
      await api("DELETE", `/audiences/${audience.id}`);
      notify(`Audience “${audience.name}” deleted.`);
      if (editing?.id === audience.id) setEditing(null);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : "The audience could not be deleted.", "error");
    }
    setDeleting(null);
    await load();
  };

  return (
    <section>
      <h1>Saved audiences</h1>
      <p className="muted lead">Describe the people you sell to once, then pick them in the playground or send their id as <code>audience_id</code>.</p>
      <AudienceForm key={editing?.id ?? "new"} vocabulary={vocabulary} editing={editing} onSaved={saved} onCancel={() => setEditing(null)} />
      {audiences && audiences.length === 0 && (
        <EmptyState title="No audiences yet" testId="audiences-empty">
          <p>Name one above and set the demographics that matter, for example an age range and how price-sensitive they are. Anything you leave unset uses the defaults.</p>
          <p className="muted">The <Link to="/playground">playground</Link> also takes an audience described on the spot.</p>
        </EmptyState>
      )}
      {audiences && audiences.length > 0 && (
        <ul className="audiences">
          {audiences.map((a) => (
            <AudienceCard key={a.id} audience={a} onEdit={() => { setEditing(a); window.scrollTo({ top: 0, behavior: "smooth" }); }} onDelete={() => setDeleting(a)} />
          ))}
        </ul>
      )}
      <ConfirmDialog open={deleting !== null} title={`Delete “${deleting?.name ?? ""}”?`} confirmLabel="Delete audience" onConfirm={() => deleting && remove(deleting)} onCancel={() => setDeleting(null)}>
        <p>Requests that send its id (<code>{deleting?.id}</code>) as <code>audience_id</code> will be refused. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
