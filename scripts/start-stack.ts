// `npm start`: runs migrations once, then every service as a child process with its output
// prefixed by name. Ctrl-C (or SIGTERM) stops them all gracefully. A service that exits on its
// own stops the stack, so a broken service is never silently missing.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SERVICES = ["ledger", "scorer", "panel-voter", "refinement", "gateway", "dashboard"];

// Tracing starts before a service's own modules load, and only when OTEL_* asks for it.
const TELEMETRY = join(root, "packages/telemetry/src/register.ts");

function run(name: string, script: string, preload: string[] = []): ChildProcess {
  const env = { ...process.env, OTEL_SERVICE_NAME: name };
  const child = spawn(process.execPath, [...preload, script], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const prefix = `${name.padEnd(12)}| `;
  const forward = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let carry = "";
    stream.on("data", (chunk: Buffer) => {
      const lines = (carry + chunk.toString("utf8")).split("\n");
      carry = lines.pop() ?? "";
      for (const line of lines) out.write(prefix + line + "\n");
    });
  };
  forward(child.stdout!, process.stdout);
  forward(child.stderr!, process.stderr);
  return child;
}

const migrate = run("migrate", join(root, "packages/db/src/migrate-cli.ts"));
const code = await new Promise<number>((resolve) => migrate.on("exit", (c) => resolve(c ?? 1)));
if (code !== 0) {
  console.error("migrations failed: not starting the services");
  process.exit(code);
}

const children = new Map<string, ChildProcess>();
for (const name of SERVICES) {
  const main = join(root, "services", name, "src/main.ts");
  if (existsSync(main)) children.set(name, run(name, main, ["--import", TELEMETRY]));
}
console.log(`started: ${[...children.keys()].join(", ")}`);

let stopping = false;
const stopAll = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill(signal);
};
for (const [name, child] of children) {
  child.on("exit", (c, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`${name} exited (${signal ?? `code ${c}`}); stopping the stack`);
      process.exitCode = 1;
      stopAll("SIGTERM");
    }
    if (children.size === 0) process.exit();
  });
}
process.on("SIGINT", () => stopAll("SIGTERM"));
process.on("SIGTERM", () => stopAll("SIGTERM"));
