import { useId } from "react";
import type { Audience, Vocabulary } from "../api.ts";
import { DemographicSelect } from "../audiences/DemographicSelect.tsx";
import { readableField } from "../audiences/field-names.ts";
import { DEFAULT_AUDIENCE_NAME, type AudienceDraft } from "./audience-drafts.ts";
import "./audiences.css";

interface Props {
  draft: AudienceDraft;
  /** Its place in the form, from 0. */
  index: number;
  /** How many audiences the form has: one is a plain ranking, several are compared. */
  count: number;
  saved: Audience[];
  vocabulary: Vocabulary;
  /** The earlier audience with the same name, when there is one. */
  duplicateOf: number | null;
  onChange: (patch: Partial<AudienceDraft>) => void;
  onRemove: () => void;
}

/** What a saved audience sets, "Price sensitivity very-high · Age range 25-34", or that it keeps the defaults. */
const savedDemographics = (a: Audience | undefined): string => {
  const set = a ? Object.entries(a.demographics) : [];
  return set.length > 0 ? set.map(([k, v]) => `${readableField(k)} ${v}`).join(" · ") : "Default demographics.";
};

/**
 * One audience of the playground's request: a saved audience picked, or one described here by
 * name, with an optional description and demographics (the audiences page's selects).
 */
export function AudienceFields({ draft, index, count, saved, vocabulary, duplicateOf, onChange, onRemove }: Props) {
  const duplicateId = useId();
  const several = count > 1;
  const demographicsSet = Object.values(draft.demographics).filter(Boolean).length;
  return (
    <fieldset className="audience-fields" data-testid="audience-fields">
      <legend>{several ? `Audience ${index + 1}` : "Audience"}</legend>
      <div className="grid">
        <label>Saved audience<select name="audienceId" value={draft.savedId} onChange={(e) => onChange({ savedId: e.target.value })}>
          <option value="">(describe one here)</option>
          {saved.map((a) => <option key={a.id} value={a.id}>{a.name}</option>)}
        </select></label>
        {!draft.savedId && (
          <label>Audience name<input
            name="inlineAudience"
            value={draft.name}
            placeholder={several ? "e.g. Bargain hunters" : DEFAULT_AUDIENCE_NAME}
            aria-invalid={duplicateOf !== null || undefined}
            aria-describedby={duplicateOf !== null ? duplicateId : undefined}
            onChange={(e) => onChange({ name: e.target.value })}
          /></label>
        )}
      </div>
      {duplicateOf !== null && <p className="error small" id={duplicateId} data-testid="duplicate-audience">Audience {duplicateOf + 1} already has this name: each audience needs its own.</p>}
      {draft.savedId ? (
        <p className="muted small saved-demographics">{savedDemographics(saved.find((a) => a.id === draft.savedId))}</p>
      ) : (
        <details className="audience-details">
          <summary>Description and demographics{demographicsSet > 0 ? ` (${demographicsSet} set)` : " (optional)"}</summary>
          <label>Description<input name="inlineAudienceDescription" value={draft.description} onChange={(e) => onChange({ description: e.target.value })} placeholder="optional, e.g. weekend runners in their thirties" /></label>
          <div className="grid">
            {Object.entries(vocabulary.demographics).map(([field, values]) => (
              <DemographicSelect key={field} field={field} values={values} value={draft.demographics[field] ?? ""} onChange={(v) => onChange({ demographics: { ...draft.demographics, [field]: v } })} />
            ))}
          </div>
        </details>
      )}
      {several && <button type="button" className="link remove-audience" onClick={onRemove} aria-label={`Remove audience ${index + 1}`}>Remove</button>}
    </fieldset>
  );
}
