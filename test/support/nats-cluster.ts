import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstreamManager, StorageType, type JetStreamManager } from "@nats-io/jetstream";
import { connectToNats, type NatsConnection } from "@adrank/messaging";
import { canConnect } from "./faults.ts";
import { freePort } from "./stack.ts";

/** Debian's package: v2.9.10 on this machine (the Helm chart deploys 2.10+ in production). */
export const NATS_SERVER = "/usr/sbin/nats-server";
const CLUSTER_NAME = "adrank-test";

export interface ClusterNode {
  /** server_name: n1, n2, n3. */
  name: string;
  url: string;
  clientPort: number;
  clusterPort: number;
  /** HTTP monitoring (/connz, /jsz) on loopback. */
  monitorPort: number;
  storeDir: string;
  configFile: string;
  logFile: string;
  running(): boolean;
}

export interface NatsCluster {
  /** Every node's client URL, comma-separated: what NATS_URL takes. */
  urls: string;
  nodes: ClusterNode[];
  /** SIGKILL, as a crashed machine or an OOM kill: nothing is flushed or handed over. */
  kill(name: string): Promise<void>;
  /** Starts a killed node again on the same ports and JetStream store; resolves once it listens. */
  start(name: string): Promise<void>;
  /** The server name of the stream's Raft leader (from the stream's cluster info). */
  leaderOf(stream: string): Promise<string>;
  /** A running node that holds a replica of the stream and is not its leader. */
  nonLeaderOf(stream: string): Promise<string>;
  /** Client connections by name (`name` of connectToNats) on the running nodes (or those named): which services are connected where. */
  clientNames(onNodes?: string[]): Promise<Record<string, number>>;
  /** Resolves once every node runs and each stream has a leader and every replica current. */
  waitHealthy(streams: string[], timeoutMs?: number): Promise<void>;
  /** The last lines of every node's log, for a failing test's message. */
  logs(lines?: number): string;
  /** Kills every node and removes the stores. */
  close(): Promise<void>;
}

/**
 * A JetStream cluster of three `nats-server` processes on loopback: one cluster name, each
 * node with its own config file, client and route ports and JetStream store, routes to the
 * others. Resolves once the cluster has a meta leader and can place a 3-replica stream.
 *
 * Sync: production's Helm values set `sync_interval: always` (fsync every write before it is
 * acknowledged). nats-server 2.9.10 has no such setting (`sync_interval` came in a later release):
 * it stops with `unknown field "sync_interval"`, and with the same for `sync` and `sync_always`, so
 * these nodes run with the only behaviour 2.9.10 has: a publish is acknowledged once a
 * majority of the replicas has written it to their files (write(2), into the page cache),
 * and the files are fsynced on a fixed timer (strace on this machine: no fsync during two
 * minutes of publishing, then one per file). A process kill, which is what these tests do,
 * keeps everything in the page cache, so it cannot lose an acknowledged write; a kernel
 * crash or power loss could lose up to two minutes of them, and with 3 replicas that takes
 * two machines failing within the same two minutes.
 */
export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  if (!existsSync(NATS_SERVER)) throw new Error(`${NATS_SERVER} is missing (apt-get install nats-server)`);
  const root = mkdtempSync(join(tmpdir(), "adrank-nats-cluster-"));
  const ports = await distinctFreePorts(size * 3);
  const nodes: Array<ClusterNode & { child: ChildProcess | null }> = [];
  for (let i = 0; i < size; i++) {
    const name = `n${i + 1}`;
    const storeDir = join(root, name);
    mkdirSync(storeDir);
    const clientPort = ports[3 * i]!;
    const clusterPort = ports[3 * i + 1]!;
    const monitorPort = ports[3 * i + 2]!;
    const node = {
      name,
      url: `nats://127.0.0.1:${clientPort}`,
      clientPort,
      clusterPort,
      monitorPort,
      storeDir,
      configFile: join(root, `${name}.conf`),
      logFile: join(root, `${name}.log`),
      child: null as ChildProcess | null,
      running: () => node.child !== null && node.child.exitCode === null && node.child.signalCode === null,
    };
    nodes.push(node);
  }
  for (const node of nodes) {
    const routes = nodes.filter((n) => n !== node).map((n) => `nats-route://127.0.0.1:${n.clusterPort}`);
    writeFileSync(
      node.configFile,
      [
        `server_name: ${node.name}`,
        `listen: 127.0.0.1:${node.clientPort}`,
        `http: 127.0.0.1:${node.monitorPort}`,
        `log_file: "${node.logFile}"`,
        `jetstream {`,
        `  store_dir: "${node.storeDir}"`,
        `  max_memory_store: 64MB`,
        `  max_file_store: 1GB`,
        `  # No sync setting: 2.9.10 rejects sync_interval ("unknown field"); see nats-cluster.ts.`,
        `}`,
        `cluster {`,
        `  name: ${CLUSTER_NAME}`,
        `  listen: 127.0.0.1:${node.clusterPort}`,
        `  routes: [${routes.join(", ")}]`,
        `}`,
        "",
      ].join("\n"),
    );
  }

  const byName = (name: string) => {
    const node = nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node ${name} (have ${nodes.map((n) => n.name).join(", ")})`);
    return node;
  };
  const start = async (name: string) => {
    const node = byName(name);
    if (node.running()) return;
    const child = spawn(NATS_SERVER, ["-c", node.configFile], { stdio: "ignore" });
    node.child = child;
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (!node.running()) throw new Error(`nats-server ${name} exited at start (${child.exitCode ?? child.signalCode})\n${tail(node.logFile, 30)}`);
      if (await canConnect(node.clientPort)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`nats-server ${name} did not listen on ${node.clientPort}\n${tail(node.logFile, 30)}`);
  };
  const kill = async (name: string) => {
    const node = byName(name);
    const child = node.child;
    if (!child || !node.running()) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  };
  const logs = (lines = 40) => nodes.map((n) => `--- ${n.name} (${n.running() ? "running" : "down"})\n${tail(n.logFile, lines)}`).join("\n");

  let nc: NatsConnection | null = null;
  let jsm: JetStreamManager | null = null;
  const urls = nodes.map((n) => n.url).join(",");
  const cluster: NatsCluster = {
    urls,
    nodes,
    kill,
    start,
    async leaderOf(stream) {
      const leader = (await jsm!.streams.info(stream)).cluster?.leader;
      if (!leader) throw new Error(`stream ${stream} has no leader now`);
      return leader;
    },
    async nonLeaderOf(stream) {
      const info = (await jsm!.streams.info(stream)).cluster;
      const follower = info?.replicas?.find((r) => !r.offline && byName(r.name).running());
      if (!follower) throw new Error(`stream ${stream} has no running follower: ${JSON.stringify(info)}`);
      return follower.name;
    },
    async waitHealthy(streams, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      let last = "";
      while (Date.now() < until) {
        try {
          const down = nodes.filter((n) => !n.running()).map((n) => n.name);
          if (down.length) throw new Error(`down: ${down.join(", ")}`);
          const problems: string[] = [];
          for (const stream of streams) {
            const c = (await jsm!.streams.info(stream)).cluster;
            if (!c?.leader) problems.push(`${stream}: no leader`);
            for (const r of c?.replicas ?? []) if (r.offline || !r.current) problems.push(`${stream}: ${r.name} ${r.offline ? "offline" : `behind by ${r.lag ?? "?"}`}`);
            if ((c?.replicas?.length ?? 0) + 1 < Math.min(size, 3)) problems.push(`${stream}: ${c?.replicas?.length ?? 0} followers`);
          }
          if (problems.length === 0) return;
          last = problems.join("; ");
        } catch (err) {
          last = String(err);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`the cluster was not healthy within ${timeoutMs} ms (last: ${last})\n${logs(20)}`);
    },
    async clientNames(onNodes) {
      const names: Record<string, number> = {};
      for (const node of nodes.filter((n) => n.running() && (!onNodes || onNodes.includes(n.name)))) {
        const res = await fetch(`http://127.0.0.1:${node.monitorPort}/connz?limit=4096`);
        const { connections = [] } = (await res.json()) as { connections?: Array<{ name?: string }> };
        for (const c of connections) names[c.name ?? ""] = (names[c.name ?? ""] ?? 0) + 1;
      }
      return names;
    },
    logs,
    async close() {
      await nc?.close().catch(() => {});
      await Promise.all(nodes.map((n) => kill(n.name)));
      rmSync(root, { recursive: true, force: true });
    },
  };

  try {
    await Promise.all(nodes.map((n) => start(n.name)));
    nc = await connectToNats({ url: urls, name: "nats-cluster-harness" });
    jsm = await jetstreamManager(nc, { timeout: 5_000, checkAPI: false });
    await waitForMetaLeader(jsm, size, logs);
    return cluster;
  } catch (err) {
    await cluster.close();
    throw err;
  }
}

/**
 * The cluster is usable once it has a JetStream meta leader and enough peers to place a
 * stream with 3 replicas (or `size`, if smaller): a tiny probe stream is created and deleted.
 */
async function waitForMetaLeader(jsm: JetStreamManager, size: number, logs: () => string, timeoutMs = 30_000): Promise<void> {
  const name = `CLUSTER_PROBE_${Date.now()}`;
  const until = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < until) {
    try {
      await jsm.streams.add({ name, subjects: [`cluster-probe.${Date.now()}`], storage: StorageType.Memory, num_replicas: Math.min(size, 3) });
      await jsm.streams.delete(name);
      return;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the NATS cluster elected no JetStream meta leader within ${timeoutMs} ms (last: ${last})\n${logs()}`);
}

async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}


function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines - 1).join("\n");
  } catch {
    return "(no log)";
  }
}
