// Per-evaluation overhead of the scorer beyond the model calls.
//   node test/bench/scorer-overhead.bench.ts [--quick]
// (1) in process: evaluate() with generators of fixed latency L and an instant embedder, so
//     everything above L is our own work (prompts, parsing, SSR maths, aggregation);
// (2) through NATS: a real scorer process with the sim generator delayed by L; a job is
//     published and its result awaited, so the figure adds JetStream, the image store and
//     sim's own image statistics.
import { createHash, randomUUID } from "node:crypto";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { withFixedLatency, type Embedder, type Generator } from "@adrank/models";
import { anchorSets } from "@adrank/ssr";
import { connectToNats, decodeJson, encodeJson, openImageStore, topology } from "@adrank/messaging";
import type { ScoreJob } from "@adrank/bus-contracts";
import { createAnchorEmbeddings } from "../../services/scorer/src/anchor-embeddings.ts";
import { evaluate } from "../../services/scorer/src/evaluate.ts";
import { crispCreative } from "../../services/scorer/test/images.ts";
import { startScorer } from "../../services/scorer/test/scorer-process.ts";

const quick = process.argv.includes("--quick");
const L = 100;
const N = quick ? 30 : 200;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms, p99 ${pct(xs, 99).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms`;

const bytes = await crispCreative();
const ref = createHash("sha256").update(bytes).digest("hex");
const job = (requestId: string, jobId: string): ScoreJob => ({
  requestId, jobId, deadline: Date.now() + 60_000, layer: "full-ad-package",
  image: { ref, mime: "image/jpeg", width: 800, height: 800 }, copy: { adHeadline: "Run further", adBody: "Light shoes for long runs." },
  persona: { audience: { name: "Runners", description: "Comparing shoes", demographics: { ageRange: "25-34" } }, goal: "purchase-intent", assetType: "Advertisement", platform: "instagram", campaignType: null },
});

// (1) in process
const fixedText: Generator = { provider: "fake", model: "fixed", temperature: null, thinking: null, generate: async () => ({ text: "I would probably buy these shoes.\nRATIONALE: Clear product.\nPRODUCT: Running shoes.", provider: "fake", model: "fixed", simulated: false }) };
const generators: [Generator, Generator] = [withFixedLatency(fixedText, L), withFixedLatency(fixedText, L)];
const dims = 384;
const embedder: Embedder = { provider: "fake", model: "instant", embed: async (texts) => texts.map((t, i) => Array.from({ length: dims }, (_, d) => Math.sin((t.length + 1) * (d + 1) * (i + 1)))) };
const anchors = createAnchorEmbeddings(embedder, anchorSets);
const deps = { generators, embedder, anchors, loadImage: async () => bytes };
await evaluate(job(randomUUID(), "warm"), deps, AbortSignal.timeout(10_000));
const inProcess: number[] = [];
for (let i = 0; i < N; i++) {
  const t0 = performance.now();
  await evaluate(job(randomUUID(), `j${i}`), deps, AbortSignal.timeout(10_000));
  inProcess.push(performance.now() - t0 - L);
}
console.log(`in-process overhead beyond one ${L} ms model round (${N} evaluations): ${fmt(inProcess)}`);

// (2) through NATS with a real scorer process
const topo = topology(`bench${randomUUID().slice(0, 6)}`);
const nc = await connectToNats({ url: process.env.NATS_URL ?? "nats://127.0.0.1:4222", name: "scorer-bench" });
await (await openImageStore(nc, topo)).put(ref, bytes);
const scorer = await startScorer({ NATS_URL: process.env.NATS_URL ?? "nats://127.0.0.1:4222", ADRANK_NAMESPACE: topo.namespace, SIM_LATENCY_MS: String(L) });
const js = jetstream(nc);
const overNats: number[] = [];
for (let i = -3; i < N; i++) {
  const requestId = randomUUID();
  const sub = nc.subscribe(topo.resultsWildcard(requestId), { max: 1 });
  const t0 = performance.now();
  await js.publish(topo.jobs.score, encodeJson(job(requestId, "j")), { msgID: `${requestId}:j` });
  for await (const m of sub) decodeJson(m.data);
  if (i >= 0) overNats.push(performance.now() - t0 - L);
}
console.log(`over NATS with a scorer process and sim delayed ${L} ms (${N} jobs, sequential): ${fmt(overNats)}`);
console.log(`aim: under 5 ms per evaluation beyond the model calls; in-process p50 ${pct(inProcess, 50).toFixed(2)} ms; over NATS p50 ${pct(overNats, 50).toFixed(2)} ms (includes sim's own pixel statistics and embeddings)`);
await scorer.stop();
const jsm = await jetstreamManager(nc);
await jsm.streams.delete(topo.streams.jobs.name).catch(() => {});
await jsm.streams.delete(`OBJ_${topo.imageBucket}`).catch(() => {});
await nc.drain();
