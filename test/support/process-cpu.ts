import { readdirSync, readFileSync } from "node:fs";

// Linux reports a process's CPU in clock ticks of 1/100 s (CLK_TCK is 100 on every
// architecture Node supports); a benchmark needs differences of many ticks, not single ones.
const TICK_MS = 10;

/** User plus system CPU a process (all its threads) has used since it started, in ms; null once it is gone. */
export function processCpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * Process ids whose command name is exactly `name`, e.g. every PostgreSQL backend. Read from
 * /proc in this process: spawning pgrep blocked the load client's event loop for tens of
 * milliseconds each time, which showed up as the p99 of the very benchmark measuring it.
 */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trimEnd() === name) pids.push(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return pids;
}

export interface CpuGroup {
  /** What the figure is called in the bench's output, e.g. "gateway" or "PostgreSQL". */
  name: string;
  /** The group's processes now: a service has one, PostgreSQL one per connection. */
  pids(): number[];
}

const SAMPLE_EVERY_MS = 1_000;

export interface CpuUse {
  name: string;
  cpuMs: number;
}

/**
 * CPU used by groups of processes over a window, from /proc, sampled every second so that
 * processes that come and go (PostgreSQL backends of a pool) are seen. A process that starts inside
 * the window counts from zero; one that ends inside it keeps what it had at its last sample.
 */
export function startCpuWindow(groups: CpuGroup[]) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const members = new Map<string, Set<number>>(groups.map((g) => [g.name, new Set<number>()]));
  const sample = (baseline: boolean) => {
    for (const g of groups) {
      for (const pid of g.pids()) {
        const ms = processCpuMs(pid);
        if (ms === null) continue;
        members.get(g.name)!.add(pid);
        if (!first.has(pid)) first.set(pid, baseline ? ms : 0);
        last.set(pid, ms);
      }
    }
  };
  sample(true);
  const timer = setInterval(() => sample(false), SAMPLE_EVERY_MS);
  const client = process.cpuUsage();
  return {
    /** CPU ms of each group over the window, and of this process (the load client). */
    stop(): CpuUse[] {
      clearInterval(timer);
      sample(false);
      const own = process.cpuUsage(client);
      const used = groups.map((g) => ({ name: g.name, cpuMs: [...members.get(g.name)!].reduce((sum, pid) => sum + (last.get(pid) ?? 0) - (first.get(pid) ?? 0), 0) }));
      return [...used, { name: "load client (this process)", cpuMs: (own.user + own.system) / 1000 }];
    },
  };
}
