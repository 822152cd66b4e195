import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

export interface ScorerProcess {
  child: ChildProcess;
  pid: number;
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `node services/scorer/src/main.ts` and resolves once it logs that it is ready. */
export async function startScorer(env: Record<string, string>): Promise<ScorerProcess> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, LOG_LEVEL: "info", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const logs: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`scorer did not start:\n${logs.join("")}`)), 20_000);
    const onData = (chunk: Buffer) => {
      logs.push(chunk.toString());
      if (chunk.toString().includes('"scorer ready"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c: Buffer) => logs.push(c.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`scorer exited with ${code}:\n${logs.join("")}`));
    });
  });
  await ready;
  return {
    child,
    pid: child.pid!,
    logs,
    stop: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
}
