import { useEffect, useState, type ClipboardEvent, type DragEvent } from "react";
import { api, ApiError, type Audience, type Vocabulary } from "./api.ts";
import { ModelsNote, type ModelsUsed } from "./ModelsNote.tsx";

interface Picked {
  name: string;
  dataUri: string;
}
interface Ranked {
  rank: number;
  asset_id: string | null;
  asset_url: string;
  score: number;
  confidence: string;
  copy_lift?: number | null;
  rationale: string;
  panel_outcome: { winnerAssetId: string; loserAssetId: string; flipped: boolean; votesFor: number; votesTotal: number } | null;
}
interface Vote {
  voterId: string;
  order: string;
  winnerId: string;
  valid?: boolean;
  invalidReason?: string;
  response: string;
  model?: string;
  simulated?: boolean;
}
interface RankAnswer {
  ranked: Ranked[];
  errors: Array<{ asset_id: string | null; error: string }>;
  summary: {
    credits_used: number;
    credits_remaining: number | null;
    models?: ModelsUsed;
    close_pair_refinement?: { results: Array<{ aId: string; bId: string; model?: string | null; votes: Vote[] }> };
  };
}
interface PairAnswer {
  pairs: Array<{ status: string; winnerId?: string; votesFor?: number; votesTotal?: number; winRate?: number; consistency?: number; error?: string; votes: Vote[] }>;
  summary?: { models?: ModelsUsed };
}

/** The voter models of the refined pair behind a card's panel outcome (a panel's seats may differ). */
const panelModels = (answer: RankAnswer, a: string, b: string): string => {
  const pair = answer.summary.close_pair_refinement?.results.find((p) => (p.aId === a && p.bId === b) || (p.aId === b && p.bId === a));
  const named = pair ? pair.votes.flatMap((v) => (v.model ? [v.model] : [])) : [];
  return [...new Set(named.length > 0 ? named : pair?.model ? [pair.model] : [])].join(", ");
};

const PanelVoters = ({ names }: { names: string }) => (names ? <small className="vote-model panel-models">voters {names}</small> : null);

const readAsDataUri = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

export function PlaygroundPage({ vocabulary }: { vocabulary: Vocabulary }) {
  const [images, setImages] = useState<Picked[]>([]);
  const [audiences, setAudiences] = useState<Audience[]>([]);
  const [audienceId, setAudienceId] = useState("");
  const [inlineName, setInlineName] = useState("General audience");
  const [goal, setGoal] = useState(vocabulary.goals[0] ?? "");
  const [assetType, setAssetType] = useState("");
  const [platform, setPlatform] = useState("");
  const [headline, setHeadline] = useState("");
  const [body, setBody] = useState("");
  const [busy, setBusy] = useState<"" | "rank" | "pairwise">("");
  const [error, setError] = useState("");
  const [ranking, setRanking] = useState<RankAnswer | null>(null);
  const [panel, setPanel] = useState<PairAnswer | null>(null);
  const [started, setStarted] = useState(0);
  const [now, setNow] = useState(0);

  useEffect(() => void api<{ audiences: Audience[] }>("GET", "/audiences").then((r) => setAudiences(r.audiences)), []);
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [busy]);

  const add = async (files: FileList | File[]) => {
    const picked = await Promise.all([...files].filter((f) => f.type.startsWith("image/")).map(async (f) => ({ name: f.name || `pasted-${Date.now()}.png`, dataUri: await readAsDataUri(f) })));
    setImages((prev) => [...prev, ...picked].slice(0, 20));
  };
  const audience = audienceId ? { audience_id: audienceId } : { audience: { name: inlineName || "General audience" } };
  const copy = headline || body ? { ...(headline ? { headline } : {}), ...(body ? { body } : {}) } : null;

  const run = async (kind: "rank" | "pairwise") => {
    setBusy(kind);
    setStarted(Date.now());
    setNow(Date.now());
    setError("");
    try {
      if (kind === "rank") {
        setRanking(await api<RankAnswer>("POST", "/playground/rank", {
          assets: images.map((img) => ({ url: img.dataUri, id: img.name, ...(copy ? { copy_context: copy } : {}) })),
          ...audience, goal, ...(assetType ? { asset_type: assetType } : {}), ...(platform ? { platform } : {}),
        }));
      } else {
        const [a, b] = images;
        setPanel(await api<PairAnswer>("POST", "/playground/pairwise", { pairs: [{ pair_id: "playground", a: { id: a!.name, image_url: a!.dataUri }, b: { id: b!.name, image_url: b!.dataUri } }], ...audience, goal, ...(platform ? { platform } : {}) }));
      }
    } catch (err) {
      setError(err instanceof ApiError ? `${err.status}: ${err.message}` : "The request failed.");
    } finally {
      setBusy("");
    }
  };
  const thumbOf = (id: string | null) => images.find((i) => i.name === id)?.dataUri;

  return (
    <section>
      <h1>Playground</h1>
      <div
        className="drop card"
        onDragOver={(e: DragEvent) => e.preventDefault()}
        onDrop={(e: DragEvent) => { e.preventDefault(); void add(e.dataTransfer.files); }}
        onPaste={(e: ClipboardEvent) => void add(e.clipboardData.files)}
        tabIndex={0}
      >
        <p>Drop images here, paste them, or <label className="file">choose files<input type="file" name="images" accept="image/png,image/jpeg,image/webp,image/gif" multiple onChange={(e) => e.target.files && void add(e.target.files)} /></label></p>
        <div className="thumbs">
          {images.map((img, i) => (
            <figure key={`${img.name}-${i}`}><img src={img.dataUri} alt={img.name} /><figcaption>{img.name}</figcaption></figure>
          ))}
        </div>
        {images.length > 0 && <button className="link" onClick={() => { setImages([]); setRanking(null); setPanel(null); }}>Clear images</button>}
      </div>
      <div className="grid card">
        <label>Saved audience<select name="audienceId" value={audienceId} onChange={(e) => setAudienceId(e.target.value)}>
          <option value="">(describe one here)</option>
          {audiences.map((a) => <option key={a.id} value={a.id}>{a.name}</option>)}
        </select></label>
        {!audienceId && <label>Audience name<input name="inlineAudience" value={inlineName} onChange={(e) => setInlineName(e.target.value)} /></label>}
        <label>Goal<select name="goal" value={goal} onChange={(e) => setGoal(e.target.value)}>{vocabulary.goals.map((g) => <option key={g}>{g}</option>)}</select></label>
        <label>Asset type<select name="assetType" value={assetType} onChange={(e) => setAssetType(e.target.value)}><option value="">default</option>{vocabulary.assetTypes.map((t) => <option key={t}>{t}</option>)}</select></label>
        <label>Platform<select name="platform" value={platform} onChange={(e) => setPlatform(e.target.value)}><option value="">any</option>{["meta", "instagram", "facebook", "tiktok", "linkedin", "google"].map((p) => <option key={p}>{p}</option>)}</select></label>
        <label>Headline<input name="headline" value={headline} onChange={(e) => setHeadline(e.target.value)} placeholder="optional ad copy" /></label>
        <label>Body<input name="body" value={body} onChange={(e) => setBody(e.target.value)} placeholder="optional ad copy" /></label>
      </div>
      <div className="row">
        <button disabled={!!busy || images.length === 0} onClick={() => run("rank")}>Rank {images.length || ""} image{images.length === 1 ? "" : "s"}</button>
        <button disabled={!!busy || images.length < 2} onClick={() => run("pairwise")}>Compare the first two with a panel</button>
        {busy && <span className="progress" role="status">{busy === "rank" ? "Ranking" : "Voting"}… {Math.round((now - started) / 1000)} s</span>}
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {ranking && (
        <>
          <ModelsNote models={ranking.summary.models} answers="scores" />
          <p className="muted">{ranking.summary.credits_used} credits used · {ranking.summary.credits_remaining ?? "?"} left. Scores compare these images with each other; they are not forecasts.</p>
          <div className="cards">
            {ranking.ranked.map((r) => (
              <article className="ranked card" key={r.rank} data-testid="ranked-card">
                <span className="rank">#{r.rank}</span>
                {thumbOf(r.asset_id) && <img src={thumbOf(r.asset_id)} alt={r.asset_id ?? ""} />}
                <h3>{r.asset_id}</h3>
                <div className="bar"><span style={{ width: `${((r.score - 1) / 4) * 100}%` }} /></div>
                <p><strong>{r.score.toFixed(2)}</strong> / 5 · {r.confidence} confidence{r.copy_lift != null && copy ? ` · copy lift ${r.copy_lift > 0 ? "+" : ""}${r.copy_lift.toFixed(2)}` : ""}</p>
                {r.panel_outcome && (
                  <p className="panel">
                    Panel: {r.panel_outcome.votesFor} of {r.panel_outcome.votesTotal} votes for {r.panel_outcome.winnerAssetId}{r.panel_outcome.flipped ? " (order flipped)" : ""}
                    <PanelVoters names={panelModels(ranking, r.panel_outcome.winnerAssetId, r.panel_outcome.loserAssetId)} />
                  </p>
                )}
                <p className="muted">{r.rationale}</p>
              </article>
            ))}
          </div>
          {ranking.errors.map((e, i) => <p key={i} className="error">{e.asset_id}: {e.error}</p>)}
        </>
      )}
      {panel && panel.pairs.map((p, i) => (
        <div className="card" key={i} data-testid="panel">
          <h3>{p.winnerId ? `${p.winnerId} wins ${p.votesFor} of ${p.votesTotal}` : `No winner (${p.status})`}</h3>
          {p.winRate !== undefined && <p className="muted">win rate {p.winRate.toFixed(2)} · consistency {p.consistency?.toFixed(2)}</p>}
          <ModelsNote models={panel.summary?.models} answers="votes" />
          <ol className="votes">
            {p.votes.map((v) => (
              <li key={v.voterId}>
                <strong>{v.voterId}</strong> ({v.order}){v.model && <small className="vote-model" data-testid="vote-model"> {v.model}</small>}: {v.valid === false ? `invalid, ${v.invalidReason}` : `picked ${v.winnerId}`}
                <details><summary>answer</summary><pre>{v.response}</pre></details>
              </li>
            ))}
          </ol>
        </div>
      ))}
    </section>
  );
}
