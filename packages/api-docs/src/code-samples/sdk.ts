import type { CodeSample } from "./code-sample.ts";
import { tsLiteral } from "./ts-literal.ts";

// Calls through @adrank/sdk (packages/sdk): createClient, then rank, rankAcrossAudiences,
// pairwise, audiences.list, audiences.create, rankAsync, getRequest, outcomes.record and
// calibration.get, each resolving to { data,
// requestId, rateLimitRemaining, … }, and waitForResult, resolving to the result itself.

const client = (readsImages: boolean) => `import { ${readsImages ? "createClient, imageFileToDataUri" : "createClient"} } from "@adrank/sdk";

const adrank = createClient({ apiKey: process.env.ADRANK_API_KEY!, baseUrl: process.env.ADRANK_BASE_URL! });`;

const sample = (source: string): CodeSample => ({ lang: "typescript", label: "TypeScript SDK", source });

/** The request body with each example image replaced by reading it from its file (the SDK sends it as a data URI). */
const bodyOf = (body: unknown, imageFiles: ReadonlyMap<string, string>) =>
  tsLiteral(body, new Map([...imageFiles].map(([dataUri, file]) => [dataUri, `await imageFileToDataUri(${JSON.stringify(file)})`])));

export function rankSdkSample(body: unknown, imageFiles: ReadonlyMap<string, string>): CodeSample {
  return sample(`${client(true)}

const { data, rateLimitRemaining } = await adrank.rank(${bodyOf(body, imageFiles)});

for (const asset of data.ranked) console.log(asset.rank, asset.asset_id, asset.score, asset.confidence, asset.rationale);
for (const failed of data.errors) console.warn(failed.asset_id, failed.error);
console.log(\`\${data.summary.scoring_evaluations} evaluations billed, \${rateLimitRemaining} left in this minute\`);`);
}

/** One ranking per audience, with the call's Idempotency-Key chosen by the caller so that a retry after it gave up is billed once. */
export function rankAcrossAudiencesSdkSample(body: unknown, imageFiles: ReadonlyMap<string, string>): CodeSample {
  return sample(`import { randomUUID } from "node:crypto";
${client(true)}

// Keep the key: a retry with it, even after this call gave up, gets the same answer, billed once.
const idempotencyKey = randomUUID();
const { data } = await adrank.rankAcrossAudiences(${bodyOf(body, imageFiles)}, { idempotencyKey });

for (const ranking of data.by_audience) console.log(ranking.audience, ranking.ranked.map((asset) => \`\${asset.asset_id} \${asset.score}\`).join(" > "));
for (const r of data.reversals) console.log(\`\${r.prefers_a.audience} prefers \${r.asset_a.asset_id}, \${r.prefers_b.audience} prefers \${r.asset_b.asset_id} (swing \${r.swing})\`);
for (const pair of data.audience_sensitivity) {
  if (pair.persona_made_no_difference) console.warn(\`\${pair.audience_a} and \${pair.audience_b} scored every creative alike: the personas changed the wording, not the decision\`);
}
console.log(\`\${data.summary.scoring_evaluations} evaluations billed for \${data.summary.audiences.length} audiences\`);`);
}

export function pairwiseSdkSample(body: unknown, imageFiles: ReadonlyMap<string, string>): CodeSample {
  return sample(`${client(true)}

const { data } = await adrank.pairwise(${bodyOf(body, imageFiles)});

for (const pair of data.pairs) {
  console.log(pair.pairId, pair.status, pair.winnerId, \`\${pair.votesFor}/\${pair.votesTotal}\`);
  for (const vote of pair.votes) console.log("  ", vote.voterId, vote.order, vote.winnerId, vote.response);
}`);
}

export function listAudiencesSdkSample(): CodeSample {
  return sample(`${client(false)}

const { data } = await adrank.audiences.list();
for (const audience of data.audiences) console.log(audience.id, audience.name);`);
}

export function createAudienceSdkSample(body: unknown): CodeSample {
  return sample(`${client(false)}

const { data: audience } = await adrank.audiences.create(${tsLiteral(body)});
console.log(audience.id); // pass it as audience_id to rank and pairwise`);
}

/** An asynchronous ranking of `body`, looked at once with getRequest, then waited for. */
export function getRequestSdkSample(body: unknown, imageFiles: ReadonlyMap<string, string>): CodeSample {
  return sample(`${client(true)}

// 202 at once: the ranking runs on the server. With { webhookUrl: "https://…" } as a second
// argument, the signed result is also POSTed there when it is done.
const { data: accepted } = await adrank.rankAsync(${bodyOf(body, imageFiles)});
console.log(accepted.request_id, accepted.status, accepted.result_url);

// Its state at any time in the next 30 days: running (with progress), succeeded or failed.
const { data: outcome } = await adrank.getRequest(accepted.request_id);
if (outcome.status === "running") console.log(\`\${outcome.request.progress.done} of \${outcome.request.progress.total} \${outcome.request.progress.unit} done\`);

// Or wait for it: the result rank() would have answered, or a RequestFailedError.
const result = await adrank.waitForResult(accepted.request_id);
if ("ranked" in result) for (const asset of result.ranked) console.log(asset.rank, asset.asset_id, asset.score);`);
}

/** Outcomes of a ranking the reader made: `requestIds` maps the example's request ids to the code that reads the reader's. */
export function recordOutcomesSdkSample(body: unknown, requestIds: ReadonlyMap<string, string>): CodeSample {
  return sample(`${client(false)}

// What the creatives of a ranking did once they ran. Recording is idempotent: a retry, or the
// same batch sent again, changes nothing.
const { data } = await adrank.outcomes.record(${tsLiteral(body, requestIds)});

console.log(\`\${data.created} created, \${data.updated} updated, \${data.unchanged} unchanged\`);
for (const outcome of data.outcomes) console.log(outcome.asset_id, outcome.metric, outcome.value, "scored", outcome.score, \`(\${outcome.goal})\`);`);
}

export function getCalibrationSdkSample(query: Record<string, string>): CodeSample {
  return sample(`${client(false)}

const { data } = await adrank.calibration.get(${tsLiteral(query)});

for (const { metric, pooled, goals } of data.metrics) {
  for (const group of [...goals, pooled]) {
    const label = \`\${metric} \${group.goal ?? "all goals"}: \${group.n_outcomes} outcomes\`;
    if (!group.enough_data) console.log(\`\${label}, not enough data (\${data.min_outcomes} needed)\`);
    else console.log(\`\${label}, rho \${group.spearman_rho?.value} [\${group.spearman_rho?.ci_low}, \${group.spearman_rho?.ci_high}], agreement \${group.pairwise_agreement?.value}\`);
    if (group.n_simulated > 0) console.log(\`  \${group.n_simulated} of them from sim-scored rankings: these figures measure the harness, not a model\`);
  }
}`);
}
