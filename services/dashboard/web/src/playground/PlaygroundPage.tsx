import { useEffect, useState } from "react";
import { api, type Audience, type Vocabulary } from "../api.ts";
import { usePageTitle } from "../ui/use-page-title.ts";
import type { PairAnswer, PickedImage, RankAnswer } from "./answers.ts";
import { FirstRunCard } from "./FirstRunCard.tsx";
import { ImageDropZone } from "./ImageDropZone.tsx";
import { PanelResult } from "./PanelResult.tsx";
import { pickImages, uniqueName } from "./pick-images.ts";
import { plainError } from "./plain-error.ts";
import { RankResults } from "./RankResults.tsx";
import { readAsDataUri } from "./read-data-uri.ts";
import { RequestOptions, type PlaygroundOptions } from "./RequestOptions.tsx";

/** Ranks dropped or pasted images, or runs a pairwise panel on the first two, through the real API. */
export function PlaygroundPage({ vocabulary }: { vocabulary: Vocabulary }) {
  usePageTitle("Playground");
  // A console server older than this page sends no limit: the API's limit when this was written.
  const max = vocabulary.maxImagesPerRank ?? 20;
  const [images, setImages] = useState<PickedImage[]>([]);
  const [notices, setNotices] = useState<string[]>([]);
  const [audiences, setAudiences] = useState<Audience[]>([]);
  const [options, setOptions] = useState<PlaygroundOptions>({ audienceId: "", inlineName: "General audience", goal: vocabulary.goals[0] ?? "", assetType: "", platform: "", headline: "", body: "" });
  const [busy, setBusy] = useState<"" | "rank" | "pairwise">("");
  const [error, setError] = useState("");
  const [ranking, setRanking] = useState<RankAnswer | null>(null);
  const [panel, setPanel] = useState<PairAnswer | null>(null);
  // Copy lift means something only when the ranking was sent with copy, whatever the fields say now.
  const [rankedWithCopy, setRankedWithCopy] = useState(false);
  const [started, setStarted] = useState(0);
  const [now, setNow] = useState(0);

  useEffect(() => void api<{ audiences: Audience[] }>("GET", "/audiences").then((r) => setAudiences(r.audiences)), []);
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [busy]);

  const add = async (files: File[]) => {
    if (files.length === 0) return;
    const { kept, notices: left } = pickImages(files, images.length, max);
    setNotices(left);
    const read = await Promise.all(kept.map(async (f) => ({ file: f, dataUri: await readAsDataUri(f) })));
    setImages((prev) => {
      const taken = new Set(prev.map((p) => p.name));
      const named = read.map(({ file, dataUri }) => {
        const name = uniqueName(file.name || `pasted-${Date.now()}.png`, taken);
        taken.add(name);
        return { name, dataUri };
      });
      return [...prev, ...named].slice(0, max);
    });
  };
  const clear = () => {
    setImages([]);
    setNotices([]);
    setRanking(null);
    setPanel(null);
  };

  const o = options;
  const audience = o.audienceId ? { audience_id: o.audienceId } : { audience: { name: o.inlineName || "General audience" } };
  const copy = o.headline || o.body ? { ...(o.headline ? { headline: o.headline } : {}), ...(o.body ? { body: o.body } : {}) } : null;
  const run = async (kind: "rank" | "pairwise") => {
    setBusy(kind);
    setStarted(Date.now());
    setNow(Date.now());
    setError("");
    try {
      if (kind === "rank") {
        const answer = await api<RankAnswer>("POST", "/playground/rank", {
          assets: images.map((img) => ({ url: img.dataUri, id: img.name, ...(copy ? { copy_context: copy } : {}) })),
          ...audience, goal: o.goal, ...(o.assetType ? { asset_type: o.assetType } : {}), ...(o.platform ? { platform: o.platform } : {}),
        });
        setRanking(answer);
        setRankedWithCopy(copy !== null);
      } else {
        const [a, b] = images;
        setPanel(await api<PairAnswer>("POST", "/playground/pairwise", { pairs: [{ pair_id: "playground", a: { id: a!.name, image_url: a!.dataUri }, b: { id: b!.name, image_url: b!.dataUri } }], ...audience, goal: o.goal, ...(o.platform ? { platform: o.platform } : {}) }));
      }
    } catch (err) {
      setError(plainError(err, images.map((i) => i.name)));
    } finally {
      setBusy("");
    }
  };

  return (
    <section>
      <h1>Playground</h1>
      <FirstRunCard hidden={ranking !== null || panel !== null} />
      <ImageDropZone images={images} notices={notices} max={max} onFiles={(files) => void add(files)} onRemove={(i) => setImages(images.filter((_, j) => j !== i))} onClear={clear} />
      <RequestOptions options={options} onChange={(patch) => setOptions({ ...options, ...patch })} audiences={audiences} vocabulary={vocabulary} />
      <div className="row">
        <button disabled={!!busy || images.length === 0} onClick={() => run("rank")}>Rank {images.length || ""} image{images.length === 1 ? "" : "s"}</button>
        <button className="secondary" disabled={!!busy || images.length < 2} onClick={() => run("pairwise")}>Compare the first two with a panel</button>
        {busy && <span className="progress" role="status">{busy === "rank" ? "Ranking" : "Voting"}… {Math.round((now - started) / 1000)} s</span>}
        {!busy && images.length === 1 && <span className="muted small">A panel needs two images.</span>}
      </div>
      {error && <p className="error" role="alert" data-testid="playground-error">{error}</p>}
      {ranking && <RankResults answer={ranking} images={images} withCopy={rankedWithCopy} />}
      {panel && panel.pairs.map((p) => <PanelResult key={p.aId + p.bId} pair={p} answer={panel} />)}
    </section>
  );
}
