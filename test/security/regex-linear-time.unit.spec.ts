import { describe, expect, it } from "vitest";
import { lookupOf } from "../../packages/api-keys/src/api-key.ts";
import { bearerToken } from "../../packages/api-keys/src/bearer.ts";
import { errorLine } from "../../packages/cli/src/error-line.ts";
import { numberCell } from "../../packages/cli/src/eval/dataset-cells.ts";
import { notTheApiHint } from "../../packages/cli/src/not-the-api.ts";
import { Identifier } from "../../packages/contracts/src/common/identifier.ts";
import { ImageUrl } from "../../packages/contracts/src/common/image-url.ts";
import { ErrorResponse } from "../../packages/contracts/src/errors/error-response.ts";
import { formatFieldPath } from "../../packages/contracts/src/errors/field-path.ts";
import { RecordOutcomesRequest } from "../../packages/contracts/src/outcomes/outcomes.ts";
import { WebhookUrl } from "../../packages/contracts/src/requests/async-fields.ts";
import { idempotencyKeyProblem } from "../../packages/contracts/src/requests/idempotency-key.ts";
import { LIMITS } from "../../packages/contracts/src/vocabulary.ts";
import { decodeImageDataUri } from "../../packages/images/src/data-uri.ts";
import { parseGoogleError, parseRetryDelay } from "../../packages/models/src/resilience/gemini-retry-info.ts";
import { parseResetDuration } from "../../packages/models/src/resilience/openai-rate-limit.ts";
import { retryAfterMs } from "../../packages/models/src/resilience/retry-after.ts";
import { copySignals } from "../../packages/models/src/sim/copy-signals.ts";
import { textStance } from "../../packages/models/src/sim/stance.ts";
import { tokenizeImages } from "../../packages/request-records/src/image-tokens.ts";
import { AdRankError } from "../../packages/sdk/src/errors.ts";
import { verifyWebhookSignature } from "../../packages/sdk/src/webhook-signature.ts";
import { fenceUntrusted } from "../../packages/ssr/src/fence.ts";
import { parseGeneratorAnswer } from "../../packages/ssr/src/generator-prompt.ts";
import { parseVoteAnswer } from "../../packages/ssr/src/vote-prompt.ts";
import { addressKey } from "../../services/dashboard/src/client-address.ts";
import { readCookie } from "../../services/dashboard/src/cookies.ts";
import { Credentials, isEmailAddress } from "../../services/dashboard/src/credentials.ts";
import { csrfProblem } from "../../services/dashboard/src/csrf.ts";
import { createDeviceTokens } from "../../services/dashboard/src/device-token.ts";
import { RequestsPage } from "../../services/dashboard/src/routes/requests.ts";
import { validTraceparent } from "../../services/gateway/src/http/traceparent.ts";

// Every regular expression (and the validator around it) that meets input from outside, timed
// against a worst-case string of the largest size that can reach it: a backtracking pattern is
// quadratic or worse there, and takes seconds to hours instead of milliseconds. The real code is
// imported, so this cannot drift from it. Patterns reviewed and left out, with why, are listed
// at the end of the file.

const KiB = 1024;
const MiB = 1024 * KiB;
/** Node's default limit on a request's whole header block (the gateway and the console keep it): no header value is longer. */
const HEADER = 16 * KiB;
/** The largest body either service can be configured to read (BODY_LIMIT_BYTES, DASHBOARD_*_BODY_LIMIT_BYTES): a body field without its own prior length cap. */
const BODY = 25 * MiB;
/** POST /api/v1/outcomes reads at most this much (OUTCOMES_BODY_LIMIT_BYTES). */
const OUTCOMES_BODY = 1 * MiB;
/** A model's answer: 1,024 tokens by default (DEFAULT_MAX_OUTPUT_TOKENS); 1 MiB is far above any configured limit. */
const MODEL_TEXT = 1 * MiB;
/** A cell of a CSV file the CLI reads. */
const CLI_INPUT = 1 * MiB;
/** A request's ad copy as the schema lets it through (50 keys, 5,000 characters each): what reaches the prompt and the sim. */
const COPY = LIMITS.copyKeysMax * (LIMITS.copyKeyMaxChars + LIMITS.copyValueMaxChars + 4);

/**
 * The bound for an input of `chars`: 100 ms up to 64 KiB (a header, a form), else 500 ns a
 * character (13 s for 25 MiB, which the slowest linear work here, a regex replace with a
 * match every other character, stays well under). A quadratic pattern needs about n²/2 steps:
 * seconds at 50,000 characters, days at 25 MiB.
 */
const boundMs = (chars: number) => (chars <= 64 * KiB ? 100 : Math.max(250, chars * 0.0005));

/** `unit` repeated until the string is `chars` long, then `tail` (what makes a backtracking pattern fail late). */
const fill = (chars: number, unit: string, head = "", tail = "") => head + unit.repeat(Math.max(0, Math.floor((chars - head.length - tail.length) / unit.length))) + tail;

interface Entry {
  /** Where the pattern lives, and what it checks. */
  where: string;
  /** The most characters that can reach it, and from where. */
  maxChars: number;
  inputs: () => string[];
  run: (input: string) => unknown;
}

const tokens = createDeviceTokens("s".repeat(40), { maxAgeMs: 86_400_000 });
const outcome = (requestId: string, metric: string) => ({ outcomes: [{ request_id: requestId, asset_id: "a", metric, value: 1 }] });

const ENTRIES: Entry[] = [
  // The account console.
  {
    where: "services/dashboard/src/credentials.ts Credentials (sign-up and sign-in email; the pattern ^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$ took 4.2 s for 50,000 characters)",
    maxChars: BODY,
    inputs: () => [fill(BODY, "a.", "a@", "@"), fill(BODY, " ", "a@b.c"), fill(BODY, "a")],
    run: (email) => Credentials.safeParse({ email, password: "x" }),
  },
  {
    where: "services/dashboard/src/credentials.ts isEmailAddress, even without the length check before it",
    maxChars: BODY,
    inputs: () => [fill(BODY, "a.", "a@", "@"), fill(BODY, "@")],
    run: isEmailAddress,
  },
  {
    where: "services/dashboard/src/routes/requests.ts RequestsPage (?before=, zod's ISO date-time pattern)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "0", "2026-11-27T10:00:00."), fill(HEADER, "9"), fill(HEADER, "-", "2026")],
    run: (before) => RequestsPage.safeParse({ before }),
  },
  {
    where: "packages/runtime addressKey via services/dashboard/src/client-address.ts (an X-Forwarded-For entry)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "1.", "::ffff:"), fill(HEADER, "%"), fill(HEADER, "1.1.1.1"), fill(HEADER, ":", "1")],
    run: addressKey,
  },
  {
    where: "services/dashboard/src/cookies.ts readCookie (Cookie header)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "a=b; "), fill(HEADER, "%41", "adrank_session="), fill(HEADER, ";")],
    run: (header) => {
      try {
        return readCookie(header, "adrank_session");
      } catch {
        return null;
      }
    },
  },
  {
    where: "services/dashboard/src/device-token.ts verify (known-device cookie)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "1", "v1."), fill(HEADER, "."), fill(120, "1", "v1.", ".a.b")],
    run: (token) => tokens.verify(token, "ada@example.com"),
  },
  {
    where: "services/dashboard/src/csrf.ts csrfProblem (Origin header, parsed as a URL)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "a", "https://"), fill(HEADER, "[", "http://"), fill(HEADER, "%2", "https://a/")],
    run: (origin) => csrfProblem({ method: "POST", sessionToken: null, headerToken: undefined, origin, host: "console.test" }),
  },
  // The gateway and the public API's contract.
  {
    where: "packages/api-keys/src/bearer.ts bearerToken (Authorization header)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, " ", "bearer ", "x\t"), fill(HEADER, "a", "Bearer ", " \t"), fill(HEADER, " ", "bearer x", "\t")],
    run: bearerToken,
  },
  {
    where: "packages/api-keys/src/api-key.ts lookupOf (the key's pattern)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "A", "agk_live_"), fill(HEADER, "-", "agk_live_", "!")],
    run: lookupOf,
  },
  {
    where: "services/gateway/src/http/traceparent.ts validTraceparent (traceparent header)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "a", "00-"), fill(HEADER, "0", "00-"), fill(HEADER, "-0")],
    run: validTraceparent,
  },
  {
    where: "packages/contracts/src/requests/idempotency-key.ts idempotencyKeyProblem (Idempotency-Key header)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "!", "", " ")],
    run: idempotencyKeyProblem,
  },
  {
    where: "packages/contracts/src/common/image-url.ts ImageUrl (an asset's url: data: and https: prefixes, then a URL parse)",
    maxChars: LIMITS.urlMaxChars,
    inputs: () => [fill(LIMITS.urlMaxChars, "a", "https://"), fill(LIMITS.urlMaxChars, "@", "https://"), fill(LIMITS.urlMaxChars, "A", "data:image/png;base64,"), fill(LIMITS.urlMaxChars, "/", "https://a")],
    run: (url) => ImageUrl.safeParse(url),
  },
  {
    where: "packages/contracts/src/common/identifier.ts Identifier (asset ids and names: control characters; runs even past its length cap)",
    maxChars: BODY,
    inputs: () => [fill(BODY, "a", "", "\u0000"), fill(BODY, "\ud800")],
    run: (id) => Identifier.safeParse(id),
  },
  {
    where: "packages/contracts/src/requests/async-fields.ts WebhookUrl (webhook_url: parsed as a URL even past its length cap)",
    maxChars: BODY,
    inputs: () => [fill(BODY, "a", "https://"), fill(BODY, "@", "https://")],
    run: (url) => WebhookUrl.safeParse(url),
  },
  {
    where: "packages/contracts/src/outcomes/outcomes.ts RecordOutcomesRequest (request_id's UUID pattern, MetricName)",
    maxChars: OUTCOMES_BODY,
    inputs: () => [fill(OUTCOMES_BODY, "0"), fill(OUTCOMES_BODY, "a", "", "!")],
    run: (text) => RecordOutcomesRequest.safeParse(outcome(text, text)),
  },
  {
    where: "packages/contracts/src/errors/field-path.ts formatFieldPath (a key of the caller's JSON named in a 422)",
    maxChars: BODY,
    inputs: () => [fill(BODY, "a", "", "!")],
    run: (key) => formatFieldPath(["demographics", key]),
  },
  {
    where: "packages/images/src/data-uri.ts decodeImageDataUri (base64 pattern, whitespace removal)",
    maxChars: LIMITS.urlMaxChars,
    inputs: () => [fill(LIMITS.urlMaxChars, "A", "data:image/png;base64,", "!"), fill(LIMITS.urlMaxChars, "A ", "data:image/png;base64,", "="), fill(LIMITS.urlMaxChars, "%41", "data:image/png;base64,")],
    run: (uri) => decodeImageDataUri(uri, 10 * MiB),
  },
  {
    where: "packages/request-records/src/image-tokens.ts tokenizeImages (data URIs cut out of a stored body: `(?:;…)*` overflowed its backtracking stack)",
    maxChars: BODY,
    inputs: () => [fill(BODY, ";a=b", "data:image/png", "x"), fill(BODY, ";a", "data:image/png"), fill(BODY, "data:image/"), fill(BODY, "A", "data:image/png;base64,")],
    run: (text) => tokenizeImages(text, (uri) => String(uri.length)),
  },
  // Model answers, which a hostile creative or copy can steer.
  {
    where: "packages/ssr/src/vote-prompt.ts parseVoteAnswer (VERDICT, VERDICT_VALUE: was quadratic in a run of spaces)",
    maxChars: MODEL_TEXT,
    inputs: () => [fill(MODEL_TEXT, " ", "WINNER:", "x"), fill(MODEL_TEXT, " ", "", "winnex"), fill(MODEL_TEXT, " ", "WINNER: image", "x")],
    run: parseVoteAnswer,
  },
  {
    where: "packages/ssr/src/generator-prompt.ts parseGeneratorAnswer (MARKER: was quadratic in a run of spaces)",
    maxChars: MODEL_TEXT,
    inputs: () => [fill(MODEL_TEXT, " ", "RATIONALE: a", "b"), fill(MODEL_TEXT, " ", "", "rationalx"), fill(MODEL_TEXT, "a. ")],
    run: parseGeneratorAnswer,
  },
  {
    where: "packages/ssr/src/fence.ts fenceUntrusted (the caller's copy in a prompt)",
    maxChars: COPY,
    inputs: () => [fill(COPY, "<<"), fill(COPY, "<<x"), fill(COPY, "\r"), fill(COPY, " \u2060")],
    run: (text) => fenceUntrusted("copy", text),
  },
  {
    where: "packages/models/src/sim/copy-signals.ts copySignals (the sim model on the caller's copy)",
    maxChars: COPY,
    inputs: () => [fill(COPY, "sign "), fill(COPY, "A!")],
    run: (text) => copySignals({ adHeadline: text }),
  },
  {
    where: "packages/models/src/sim/stance.ts textStance (clauses of a model answer)",
    maxChars: MODEL_TEXT,
    inputs: () => [fill(MODEL_TEXT, ", "), fill(MODEL_TEXT, "a'"), fill(MODEL_TEXT, "but ")],
    run: textStance,
  },
  {
    where: "packages/models/src/resilience/openai-rate-limit.ts parseResetDuration (a provider's x-ratelimit-reset header)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "1m", "", "x"), fill(HEADER, "1.1", "", "x")],
    run: parseResetDuration,
  },
  {
    where: "packages/models/src/resilience/retry-after.ts retryAfterMs (a provider's Retry-After headers)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "1", "", "x"), fill(HEADER, "1.1", "", "x")],
    run: (value) => retryAfterMs({ get: () => value }, 0),
  },
  {
    where: "packages/models/src/resilience/gemini-retry-info.ts parseRetryDelay, parseGoogleError (a provider's error body)",
    maxChars: MODEL_TEXT,
    inputs: () => [fill(MODEL_TEXT, "1", "", "x"), fill(MODEL_TEXT, "per day ")],
    run: (text) => [parseRetryDelay(text), parseGoogleError({ error: { code: 429, message: text, status: text, details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: text }] } })],
  },
  // The SDK and the CLI, reading what a server or a webhook sender sends them.
  {
    where: "packages/sdk/src/webhook-signature.ts verifyWebhookSignature (Adrank-Signature header at the customer's receiver)",
    maxChars: HEADER,
    inputs: () => [fill(HEADER, "1", "t=", ",v1=x"), fill(HEADER, ",", "t=1"), fill(HEADER, "v1=,")],
    run: (header) => verifyWebhookSignature("{}", header, "secret"),
  },
  {
    where: "contracts ErrorResponse as the SDK reads an error answer (request_id's UUID pattern)",
    maxChars: BODY,
    inputs: () => [fill(BODY, "0"), fill(BODY, "0-")],
    run: (requestId) => ErrorResponse.safeParse({ error: "x", request_id: requestId }),
  },
  {
    where: "packages/cli/src/not-the-api.ts notTheApiHint and packages/cli/src/error-line.ts errorLine (an answer's body and sentence)",
    maxChars: BODY,
    inputs: () => [fill(BODY, " \t", "", "x"), fill(BODY, " ", "", "<htmx")],
    run: (text) => [notTheApiHint(new AdRankError(text, { status: 404, requestId: null, body: text }), "http://127.0.0.1:8090"), errorLine(new AdRankError(text, { status: 404, requestId: null, body: text }))],
  },
  {
    where: "packages/cli/src/eval/dataset-cells.ts numberCell, and adrank outcomes' cells (DECIMAL: was quadratic in a run of digits)",
    maxChars: CLI_INPUT,
    inputs: () => [fill(CLI_INPUT, "1", "", "x"), fill(CLI_INPUT, "1", "1.", "e1x")],
    run: (cell) => numberCell({ value: cell }, "value"),
  },
];

/** The faster of two runs (one above 1 MiB): the machine is shared, and a backtracking pattern is slow every time. */
async function timeMs(run: () => unknown, chars: number): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < (chars > MiB ? 1 : 2); i++) {
    const started = performance.now();
    await run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe("regular expressions on untrusted input take time linear in its length", () => {
  it.each(ENTRIES)("$where", async (entry) => {
    const timings: string[] = [];
    let slowest = 0;
    for (const input of entry.inputs()) {
      expect(input.length).toBeLessThanOrEqual(entry.maxChars);
      const ms = await timeMs(() => entry.run(input), input.length);
      slowest = Math.max(slowest, ms);
      timings.push(`${input.length.toLocaleString("en-US")} chars ${ms.toFixed(1)} ms`);
    }
    console.info(`${entry.where}: ${timings.join("; ")}`);
    expect(slowest).toBeLessThan(boundMs(entry.maxChars));
  }, 120_000);
});

// Reviewed and not timed here:
// - services/gateway/src/operations/requests/route.ts UUID: anchored, fixed length, no alternation (a URL path segment).
// - services/*/src/config.ts, packages/runtime/src/config.ts, packages/models/src/config/*, packages/cli/src/settings.ts:
//   environment and configuration, set by the operator. `replace(/\/+$/, "")` on a base URL there is quadratic in a run
//   of slashes, but only an operator writes it.
// - packages/models/src/capabilities/*: model ids from configuration. packages/models/src/adapters/*.ts: provider error
//   messages matched against alternations of words (linear).
// - services/gateway/src/errors/database-unavailable.ts, webhooks/deliver.ts, packages/images/src/fetch-https-image.ts,
//   packages/messaging/*, services/ledger/*: error codes and messages of our own libraries and servers.
// - packages/api-docs/src/code-samples/*: run over the spec's own examples when the document is built.
// - packages/cli/src/table-file.ts, data-uri-summary.ts, eval/image-source.ts, commands/get.ts, html-report.ts,
//   eval/html/escape.ts: anchored or single-class patterns over the user's own files and arguments (linear).
// - packages/sdk/src/cleartext-key.ts: the caller's own base URL.
// - services/dashboard/web/src: runs in the browser, on the console's own answers.
