import { useEffect, useState } from "react";
import { api, type Audience, type Vocabulary } from "../api.ts";
import { usePageTitle } from "../ui/use-page-title.ts";
import type { AudiencesAnswer, PairAnswer, PickedImage, RankAnswer } from "./answers.ts";
import { audienceItem, audiencesProblem, DEFAULT_AUDIENCE_NAME, newAudienceDraft, singleAudienceFields } from "./audience-drafts.ts";
import { AudiencesResults } from "./AudiencesResults.tsx";
import { FirstRunCard } from "./FirstRunCard.tsx";
import { assetCopyContext, copyOfPicked } from "./image-copy.ts";
import { ImageDropZone } from "./ImageDropZone.tsx";
import { PanelResult } from "./PanelResult.tsx";
import { pickImages, uniqueName } from "./pick-images.ts";
import { plainError } from "./plain-error.ts";
import { RankResults } from "./RankResults.tsx";
import { readAsDataUri } from "./read-data-uri.ts";
import { RequestOptions, type PlaygroundOptions } from "./RequestOptions.tsx";

/**
 * Ranks dropped or pasted images for one audience, or for two to five side by side, or runs a
 * pairwise panel on the first two, through the real API.
 */
export function PlaygroundPage({ vocabulary }: { vocabulary: Vocabulary }) {
  usePageTitle("Playground");
  // A console server older than this page sends no limit: the API's limit when this was written.
  const max = vocabulary.maxImagesPerRank ?? 20;
  const [images, setImages] = useState<PickedImage[]>([]);
  const [notices, setNotices] = useState<string[]>([]);
  const [audiences, setAudiences] = useState<Audience[]>([]);
  const [options, setOptions] = useState<PlaygroundOptions>({ audiences: [newAudienceDraft(1, DEFAULT_AUDIENCE_NAME)], goal: vocabulary.goals[0] ?? "", assetType: "", platform: "", headline: "", body: "", imageCopy: {} });
  const [busy, setBusy] = useState<"" | "rank" | "pairwise">("");
  const [error, setError] = useState("");
  const [ranking, setRanking] = useState<RankAnswer | null>(null);
  const [byAudience, setByAudience] = useState<AudiencesAnswer | null>(null);
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
  const remove = (index: number) => {
    const left = images.filter((_, j) => j !== index);
    setImages(left);
    setOptions({ ...options, imageCopy: copyOfPicked(left.map((i) => i.name), options.imageCopy) });
  };
  const clear = () => {
    setImages([]);
    setOptions({ ...options, imageCopy: {} });
    setNotices([]);
    setRanking(null);
    setByAudience(null);
    setPanel(null);
  };

  const o = options;
  const several = o.audiences.length > 1;
  const audience = singleAudienceFields(o.audiences[0]!);
  const run = async (kind: "rank" | "pairwise") => {
    // Names the API would refuse are refused here, before any credit is spent.
    const problem = kind === "rank" ? audiencesProblem(o.audiences, audiences) : null;
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(kind);
    setStarted(Date.now());
    setNow(Date.now());
    setError("");
    try {
      if (kind === "rank") {
        // Each image's own copy where it has some, else the shared copy, else none.
        const copies = images.map((img) => assetCopyContext(o.imageCopy[img.name], o));
        const assets = images.map((img, i) => ({ url: img.dataUri, id: img.name, ...(copies[i] ? { copy_context: copies[i] } : {}) }));
        const common = { goal: o.goal, ...(o.assetType ? { asset_type: o.assetType } : {}), ...(o.platform ? { platform: o.platform } : {}) };
        if (several) {
          setByAudience(await api<AudiencesAnswer>("POST", "/playground/rank-audiences", { assets, audiences: o.audiences.map(audienceItem), ...common }));
          setRanking(null);
        } else {
          setRanking(await api<RankAnswer>("POST", "/playground/rank", { assets, ...audience, ...common }));
          setByAudience(null);
        }
        setRankedWithCopy(copies.some((c) => c !== null));
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
      <FirstRunCard hidden={ranking !== null || byAudience !== null || panel !== null} />
      <ImageDropZone images={images} notices={notices} max={max} onFiles={(files) => void add(files)} onRemove={remove} onClear={clear} />
      <RequestOptions options={options} onChange={(patch) => setOptions({ ...options, ...patch })} audiences={audiences} vocabulary={vocabulary} images={images} />
      <div className="row">
        <button disabled={!!busy || images.length === 0} onClick={() => run("rank")}>
          Rank {images.length || ""} image{images.length === 1 ? "" : "s"}{several ? ` for ${o.audiences.length} audiences` : ""}
        </button>
        <button className="secondary" disabled={!!busy || images.length < 2 || several} onClick={() => run("pairwise")}>Compare the first two with a panel</button>
        {busy && <span className="progress" role="status">{busy === "rank" ? (several ? `Ranking for ${o.audiences.length} audiences` : "Ranking") : "Voting"}… {Math.round((now - started) / 1000)} s</span>}
        {!busy && several && images.length > 1 && <span className="muted small">A panel runs for one audience.</span>}
        {!busy && images.length === 1 && <span className="muted small">A panel needs two images.</span>}
      </div>
      {error && <p className="error" role="alert" data-testid="playground-error">{error}</p>}
      {ranking && <RankResults answer={ranking} images={images} withCopy={rankedWithCopy} />}
      {byAudience && <AudiencesResults answer={byAudience} images={images} withCopy={rankedWithCopy} />}
      {panel && panel.pairs.map((p) => <PanelResult key={p.aId + p.bId} pair={p} answer={panel} />)}
    </section>
  );
}
