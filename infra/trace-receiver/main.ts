// Container entry point: `node main.ts`. Listens on all interfaces (HOST) on Jaeger's ports
// unless OTLP_PORT, QUERY_PORT or HEALTH_PORT say otherwise.
import { startTraceReceiver } from "./receiver.ts";

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} must be a port number, got ${JSON.stringify(raw)}`);
  return value;
}

const receiver = await startTraceReceiver({
  host: process.env.HOST ?? "0.0.0.0",
  otlpPort: port("OTLP_PORT", 4318),
  queryPort: port("QUERY_PORT", 16686),
  healthPort: port("HEALTH_PORT", 13133),
});
process.stdout.write(
  `${JSON.stringify({ msg: "trace-receiver started", otlp: `${receiver.otlp.host}:${receiver.otlp.port}`, query: `${receiver.query.host}:${receiver.query.port}`, health: `${receiver.health.host}:${receiver.health.port}` })}\n`,
);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`${JSON.stringify({ msg: "trace-receiver stopping", signal })}\n`);
  receiver.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error("trace-receiver: close failed", err);
      process.exit(1);
    },
  );
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
