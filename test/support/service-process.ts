import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "./paths.ts";

const KEEP_LINES = 400;
// As in the images: tracing is set up before the service loads, and only if OTEL_* asks.
const TELEMETRY = join(REPO_ROOT, "packages/telemetry/src/register.ts");

/**
 * A service started as a child process with its output kept (the last lines), so a failed
 * start or test can show what the service said. Stopped with SIGTERM, then SIGKILL.
 */
export class ServiceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  private readonly lines: string[] = [];
  private readonly exited: Promise<number | null>;

  constructor(name: string, script: string, env: Record<string, string>, cwd: string) {
    this.name = name;
    const fullEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", OTEL_SERVICE_NAME: name, ...env };
    this.child = spawn(process.execPath, ["--import", TELEMETRY, script], { cwd, env: fullEnv, stdio: ["ignore", "pipe", "pipe"] });
    const collect = (stream: NodeJS.ReadableStream | null) => {
      let carry = "";
      stream?.on("data", (chunk: Buffer) => {
        const parts = (carry + chunk.toString("utf8")).split("\n");
        carry = parts.pop() ?? "";
        for (const line of parts) {
          this.lines.push(line);
          if (this.lines.length > KEEP_LINES) this.lines.shift();
        }
      });
    };
    collect(this.child.stdout);
    collect(this.child.stderr);
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  output(): string {
    return this.lines.map((l) => `${this.name}| ${l}`).join("\n");
  }

  isRunning(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop(graceMs = 8_000): Promise<void> {
    if (!this.isRunning()) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
