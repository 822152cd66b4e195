import type { Audience, Vocabulary } from "../api.ts";

export interface PlaygroundOptions {
  /** A saved audience's id, or "" to describe one inline by name. */
  audienceId: string;
  inlineName: string;
  goal: string;
  assetType: string;
  platform: string;
  headline: string;
  body: string;
}

const PLATFORMS = ["meta", "instagram", "facebook", "tiktok", "linkedin", "google"];

/** Who the ads are for, what they should achieve, where they run, and optional copy. */
export function RequestOptions({ options, onChange, audiences, vocabulary }: { options: PlaygroundOptions; onChange: (patch: Partial<PlaygroundOptions>) => void; audiences: Audience[]; vocabulary: Vocabulary }) {
  const o = options;
  return (
    <div className="card">
      <div className="grid">
        <label>Saved audience<select name="audienceId" value={o.audienceId} onChange={(e) => onChange({ audienceId: e.target.value })}>
          <option value="">(describe one here)</option>
          {audiences.map((a) => <option key={a.id} value={a.id}>{a.name}</option>)}
        </select></label>
        {!o.audienceId && <label>Audience name<input name="inlineAudience" value={o.inlineName} onChange={(e) => onChange({ inlineName: e.target.value })} /></label>}
        <label>Goal<select name="goal" value={o.goal} onChange={(e) => onChange({ goal: e.target.value })}>{vocabulary.goals.map((g) => <option key={g}>{g}</option>)}</select></label>
        <label>Asset type<select name="assetType" value={o.assetType} onChange={(e) => onChange({ assetType: e.target.value })}><option value="">default</option>{vocabulary.assetTypes.map((t) => <option key={t}>{t}</option>)}</select></label>
        <label>Platform<select name="platform" value={o.platform} onChange={(e) => onChange({ platform: e.target.value })}><option value="">any</option>{PLATFORMS.map((p) => <option key={p}>{p}</option>)}</select></label>
      </div>
      <div className="grid two copy-fields">
        <label>Headline<input name="headline" value={o.headline} onChange={(e) => onChange({ headline: e.target.value })} placeholder="optional ad copy" /></label>
        <label>Body<input name="body" value={o.body} onChange={(e) => onChange({ body: e.target.value })} placeholder="optional ad copy" /></label>
      </div>
      <p className="muted small">With copy, every image is scored with it and alone, and each result shows its copy lift.</p>
    </div>
  );
}
