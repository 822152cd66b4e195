import type { CodeSample } from "./code-sample.ts";
import { tsLiteral } from "./ts-literal.ts";

// Calls through @adrank/sdk (packages/sdk): createClient, then rank, pairwise,
// audiences.list, audiences.create, rankAsync and getRequest, each resolving to { data,
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
