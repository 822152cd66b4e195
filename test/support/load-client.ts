import { Agent, request } from "node:http";

export interface LoadRequest {
  path: string;
  key: string;
  /** JSON, serialized once before the run so that the client spends its CPU on sending. */
  body: Buffer;
}

export interface LoadResult {
  /** Latency of each completed request, ms, in completion order. */
  latencies: number[];
  statuses: Map<number, number>;
  /** Requests that got no HTTP answer at all (connection refused or reset). */
  failures: number;
  elapsedMs: number;
}

/**
 * A closed-loop load client: `concurrency` loops, each sending its next POST when the last
 * one answered, over keep-alive connections (one per loop), spread round-robin over
 * `baseUrls` (several gateways). Lighter than fetch, so that the client takes as little of
 * the machine's CPU from the stack it measures as it can.
 */
export async function runClosedLoop(opts: { baseUrls: string[]; concurrency: number; total: number; maxMs: number; requestAt(i: number): LoadRequest }): Promise<LoadResult> {
  const targets = opts.baseUrls.map((u) => new URL(u));
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let failures = 0;
  let next = 0;
  const started = performance.now();

  const send = (i: number): Promise<number> => {
    const { path, key, body } = opts.requestAt(i);
    const target = targets[i % targets.length]!;
    return new Promise((resolve) => {
      const req = request(
        { agent, host: target.hostname, port: target.port, method: "POST", path, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": body.length } },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", () => resolve(0));
        },
      );
      req.on("error", () => resolve(0));
      req.end(body);
    });
  };

  const loop = async () => {
    while (next < opts.total && performance.now() - started < opts.maxMs) {
      const i = next++;
      const t0 = performance.now();
      const status = await send(i);
      if (status === 0) {
        failures++;
        continue;
      }
      latencies.push(performance.now() - t0);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, loop));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { latencies, statuses, failures, elapsedMs };
}
