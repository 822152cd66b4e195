import type { Audience, Vocabulary } from "../api.ts";
import type { PickedImage } from "./answers.ts";
import { duplicateOf, MAX_AUDIENCES, newAudienceDraft, type AudienceDraft } from "./audience-drafts.ts";
import { AudienceFields } from "./AudienceFields.tsx";
import type { CopyFields } from "./image-copy.ts";
import { ImageCopyFields } from "./ImageCopyFields.tsx";

export interface PlaygroundOptions {
  /** One audience ranks as before; two to five are ranked side by side. */
  audiences: AudienceDraft[];
  goal: string;
  assetType: string;
  platform: string;
  /** The shared copy: every image's unless it has its own. */
  headline: string;
  body: string;
  /** Image name → that image's own copy. */
  imageCopy: Record<string, CopyFields>;
}

const PLATFORMS = ["meta", "instagram", "facebook", "tiktok", "linkedin", "google"];

/** Who the ads are for (one audience, or up to five side by side), what they should achieve, where they run, and optional copy, shared or each image's own. */
export function RequestOptions({ options, onChange, audiences, vocabulary, images }: { options: PlaygroundOptions; onChange: (patch: Partial<PlaygroundOptions>) => void; audiences: Audience[]; vocabulary: Vocabulary; images: PickedImage[] }) {
  const o = options;
  const drafts = o.audiences;
  const duplicates = duplicateOf(drafts, audiences);
  const update = (key: number, patch: Partial<AudienceDraft>) => onChange({ audiences: drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)) });
  const add = () => onChange({ audiences: [...drafts, newAudienceDraft(Math.max(0, ...drafts.map((d) => d.key)) + 1)] });
  const remove = (key: number) => onChange({ audiences: drafts.filter((d) => d.key !== key) });
  const full = drafts.length >= MAX_AUDIENCES;
  return (
    <div className="card">
      <div className="audience-list">
        {drafts.map((d, i) => (
          <AudienceFields key={d.key} draft={d} index={i} count={drafts.length} saved={audiences} vocabulary={vocabulary} duplicateOf={duplicates[i] ?? null} onChange={(patch) => update(d.key, patch)} onRemove={() => remove(d.key)} />
        ))}
      </div>
      <div className="row add-audience">
        <button type="button" className="secondary" disabled={full} onClick={add}>Add an audience</button>
        <span className="muted small" data-testid="add-audience-help">
          {full ? `${MAX_AUDIENCES} audiences at most.` : `Compare up to ${MAX_AUDIENCES} audiences side by side: every image is scored once for each of them.`}
        </span>
      </div>
      <div className="grid">
        <label>Goal<select name="goal" value={o.goal} onChange={(e) => onChange({ goal: e.target.value })}>{vocabulary.goals.map((g) => <option key={g}>{g}</option>)}</select></label>
        <label>Asset type<select name="assetType" value={o.assetType} onChange={(e) => onChange({ assetType: e.target.value })}><option value="">default</option>{vocabulary.assetTypes.map((t) => <option key={t}>{t}</option>)}</select></label>
        <label>Platform<select name="platform" value={o.platform} onChange={(e) => onChange({ platform: e.target.value })}><option value="">any</option>{PLATFORMS.map((p) => <option key={p}>{p}</option>)}</select></label>
      </div>
      <div className="grid two copy-fields">
        <label>Headline<input name="headline" value={o.headline} onChange={(e) => onChange({ headline: e.target.value })} placeholder="optional, for every image" /></label>
        <label>Body<input name="body" value={o.body} onChange={(e) => onChange({ body: e.target.value })} placeholder="optional, for every image" /></label>
      </div>
      <ImageCopyFields images={images} own={o.imageCopy} shared={o} onChange={(name, copy) => onChange({ imageCopy: { ...o.imageCopy, [name]: copy } })} />
      <p className="muted small">With copy, an image is scored with it and alone, and its result shows its copy lift. A panel compares the images alone, without copy.</p>
    </div>
  );
}
