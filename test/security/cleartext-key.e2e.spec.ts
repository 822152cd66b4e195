import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createClient } from "@adrank/sdk";
import { REPO_ROOT } from "../support/paths.ts";

// Issue 31, attack 12: the CLI and the SDK sent the bearer key over plain http:// to any
// host, so one mistyped ADRANK_BASE_URL put the key on the wire for every router on the path
// to read. They now refuse before any connection: https:// anywhere, http:// only to this
// machine, unless the owner opts in. No test traffic leaves the machine: the SDK gets a
// recording fetch, and the CLI runs with every fetch blocked and recorded.

const CLI = join(REPO_ROOT, "packages/cli/src/main.ts");
const BLOCK = pathToFileURL(join(REPO_ROOT, "test/support/block-network.ts")).href;
const KEY = "agk_live_abcdefghijkl_0123456789abcdefghijklmnopqrstuv";

function runCli(baseUrl: string, extraEnv: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", BLOCK, CLI, "get", "7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10"], { env: { PATH: process.env.PATH ?? "", ADRANK_API_KEY: KEY, ADRANK_BASE_URL: baseUrl, ...extraEnv }, timeout: 30_000 }, (err, _stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
}

/** A fetch that records where it was asked to go and never connects. */
function recordingFetch() {
  const urls: string[] = [];
  const fetch = (async (input: string | URL | Request) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return new Response(JSON.stringify({ error: "recorded" }), { status: 401, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  return { urls, fetch };
}

describe("the bearer key never travels in clear text to another machine", () => {
  it.each(["http://api.example.com", "http://10.0.0.5:8080", "http://[2001:db8::1]:8080", "http://127.0.0.1.example.com"])("the CLI refuses %s before connecting, naming the fix", async (baseUrl) => {
    const { code, stderr } = await runCli(baseUrl);
    expect(code).toBe(2);
    expect(stderr).toMatch(/refusing to send the API key in clear text/);
    expect(stderr).toMatch(/ADRANK_ALLOW_INSECURE_HTTP/);
    expect(stderr).not.toContain("BLOCKED-FETCH");
    expect(stderr).not.toContain(KEY);
  });

  it("the CLI still calls http:// on this machine, and another host when the owner opts in", async () => {
    const cases = [["http://127.0.0.1:9", {}], ["http://localhost:9", {}], ["http://[::1]:9", {}], ["http://gateway.adrank.svc:8080", { ADRANK_ALLOW_INSECURE_HTTP: "true" }]] as const;
    // At once: each CLI retries its blocked call with back-off for a few seconds.
    const runs = await Promise.all(cases.map(([baseUrl, env]) => runCli(baseUrl, env)));
    runs.forEach(({ stderr }, i) => expect(stderr, cases[i]![0]).toContain("BLOCKED-FETCH"));
  });

  it("the SDK refuses a remote http:// address when the client is made, and calls nothing", () => {
    const { urls, fetch } = recordingFetch();
    expect(() => createClient({ apiKey: KEY, baseUrl: "http://api.example.com", fetch })).toThrow(/refusing to send the API key in clear text to http:\/\/api\.example\.com.*allowInsecureHttp/);
    expect(urls).toEqual([]);
  });

  it("the SDK calls https:// anywhere, http:// on this machine, and remote http:// only with allowInsecureHttp", async () => {
    const { urls, fetch } = recordingFetch();
    const retry = { maxRetries: 0 };
    for (const baseUrl of ["https://api.example.com", "http://127.0.0.1:8080", "http://localhost:8080"]) {
      await expect(createClient({ apiKey: KEY, baseUrl, fetch, retry }).getRequest("req_1")).rejects.toThrow();
    }
    await expect(createClient({ apiKey: KEY, baseUrl: "http://gateway.adrank.svc:8080", fetch, retry, allowInsecureHttp: true }).getRequest("req_1")).rejects.toThrow();
    expect(urls.map((u) => new URL(u).origin)).toEqual(["https://api.example.com", "http://127.0.0.1:8080", "http://localhost:8080", "http://gateway.adrank.svc:8080"]);
  });
});
