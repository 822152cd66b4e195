import type { Audience } from "../api.ts";
import { readableField } from "./field-names.ts";

/** A saved audience: its name, id (for `audience_id` in the API) and the demographics it sets. */
export function AudienceCard({ audience, onEdit, onDelete }: { audience: Audience; onEdit: () => void; onDelete: () => void }) {
  const set = Object.entries(audience.demographics);
  return (
    <li className="card" data-audience-name={audience.name}>
      <div className="audience-head">
        <strong>{audience.name}</strong>
        <code className="muted small" title="Send this as audience_id">{audience.id}</code>
      </div>
      {audience.description && <p className="muted">{audience.description}</p>}
      {set.length > 0 ? (
        <ul className="chips">
          {set.map(([k, v]) => <li key={k}><span className="muted">{readableField(k)}</span> {v}</li>)}
        </ul>
      ) : (
        <p className="muted">Default demographics.</p>
      )}
      <div className="row">
        <button className="secondary" onClick={onEdit} aria-label={`Edit ${audience.name}`}>Edit</button>
        <button className="danger" onClick={onDelete} aria-label={`Delete ${audience.name}`}>Delete</button>
      </div>
    </li>
  );
}
