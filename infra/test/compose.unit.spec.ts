import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { loadConfig } from "@adrank/runtime";
import { ModelsEnv } from "@adrank/models";
import { composeSchemaErrors, loadCompose, type ComposeService } from "./support/compose.ts";
import { fromRoot } from "./support/paths.ts";
import { deployedServices, servicesInRepository } from "./support/services.ts";
import { NATS_USERS } from "@adrank/messaging";
import { passwordVariable } from "../nats/auth-config.ts";

const compose = loadCompose();
const envFile = (path: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(fromRoot(path), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.trimStart().startsWith("#"))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
const ollamaEnv = envFile("infra/compose/ollama.env");
const withOllama = loadCompose(ollamaEnv);
const entries = Object.entries(compose.services);
const longRunning = entries.filter(([, s]) => s.restart !== "no");

describe("docker-compose.yml", () => {
  test("validates against the Compose specification's JSON schema, with default and with Ollama settings", () => {
    expect(composeSchemaErrors(compose)).toEqual([]);
    expect(composeSchemaErrors(withOllama)).toEqual([]);
  });

  test.each(longRunning)("%s has a health check and resource limits", (_name, service) => {
    expect(service.healthcheck?.disable).not.toBe(true);
    expect(service.healthcheck?.test?.[0]).toMatch(/^CMD(-SHELL)?$/);
    expect(service.healthcheck!.test.length).toBeGreaterThan(1);
    const limits = service.deploy?.resources?.limits;
    const hasLimits = (limits?.cpus !== undefined && limits.memory !== undefined) || (service.mem_limit !== undefined && service.cpus !== undefined);
    expect(hasLimits).toBe(true);
  });

  test("one-shot services are exactly the migrations, the admin command line and the model pull", () => {
    expect(entries.filter(([, s]) => s.restart === "no").map(([n]) => n).sort()).toEqual(["admin", "migrate", "ollama-pull"]);
    expect(compose.services.migrate!.build).toEqual({ context: ".", target: "migrate", args: { NODE_IMAGE: "node:24-slim" } });
  });

  test.each(deployedServices)("$name is built from its Dockerfile target and checked on its readiness endpoint", ({ name, port, portVariable }) => {
    const service = compose.services[name]!;
    expect(service.build).toEqual({ context: ".", target: name, args: { NODE_IMAGE: "node:24-slim" } });
    expect(service.healthcheck!.test).toEqual(["CMD", "node", "infra/docker/healthcheck.ts", `http://127.0.0.1:${port}/readyz`]);
    expect(service.environment?.[portVariable]).toBe(String(port));
    expect(service.environment?.OTEL_SERVICE_NAME).toBe(name);
    expect(service.environment?.NATS_URL).toBe("nats://nats:4222");
  });

  test("every service in the repository runs in compose", () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(servicesInRepository()));
  });

  test("services that use Postgres start after the migrations succeeded", () => {
    // A service uses Postgres when its package depends on @adrank/db; none migrates itself.
    const usesPostgres = servicesInRepository().filter((name) => {
      const manifest = JSON.parse(readFileSync(fromRoot(`services/${name}/package.json`), "utf8")) as { dependencies?: Record<string, string> };
      return manifest.dependencies?.["@adrank/db"] !== undefined;
    });
    expect(usesPostgres).toEqual(expect.arrayContaining(["gateway", "ledger", "dashboard"]));
    for (const name of usesPostgres) {
      expect(compose.services[name]!.depends_on?.migrate, name).toEqual({ condition: "service_completed_successfully" });
    }
    expect(compose.services.migrate!.depends_on?.postgres).toEqual({ condition: "service_healthy" });
  });

  test("gateway, dashboard and Jaeger (UI and OTLP) are published on localhost only", () => {
    const published = entries.flatMap(([name, s]) => (s.ports ?? []).map((p) => `${name} ${p}`)).sort();
    expect(published).toEqual(["dashboard 127.0.0.1:8090:8090", "gateway 127.0.0.1:8080:8080", "jaeger 127.0.0.1:16686:16686", "jaeger 127.0.0.1:4318:4318"]);
  });

  test("the offline images are chosen by variables alone, and every adrank image shares one Node base", () => {
    const offline = loadCompose(envFile("infra/offline/images.env"));
    expect(offline.services.nats!.image).toBe("adrank-offline/nats:2.10");
    expect(offline.services.postgres!.image).toBe("adrank-offline/postgres:15");
    expect(offline.services.jaeger!.image).toBe("adrank-offline/trace-receiver");
    for (const { name } of deployedServices) expect(offline.services[name]!.build?.args, name).toEqual({ NODE_IMAGE: "adrank-offline/node:24" });
    expect(composeSchemaErrors(offline)).toEqual([]);
  });

  test("adrank containers drop capabilities and run on a read-only root filesystem", () => {
    for (const { name } of deployedServices) {
      const service = compose.services[name] as ComposeService & { read_only?: boolean; cap_drop?: string[] };
      expect(service.read_only, name).toBe(true);
      expect(service.cap_drop, name).toEqual(["ALL"]);
    }
  });

  test("services send their traces to Jaeger's own OTLP receiver, and start without waiting for it", () => {
    for (const { name } of deployedServices) expect(compose.services[name]!.environment?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe("http://jaeger:4318");
    expect(compose.services.jaeger!.image).toMatch(/^jaegertracing\/jaeger:2\./);
    // Jaeger v2's health check extension; the offline stand-in answers the same path.
    expect(compose.services.jaeger!.healthcheck!.test.at(-1)).toBe("http://127.0.0.1:13133/status");
    expect(compose.services.scorer!.depends_on?.jaeger).toEqual({ condition: "service_started" });
  });

  test("NATS runs JetStream and syncs every write before acknowledging it", () => {
    const conf = readFileSync(fromRoot("infra/nats/nats-server.conf"), "utf8");
    expect(conf).toMatch(/jetstream\s*\{[^}]*store_dir:\s*\/data[^}]*\}/);
    expect(conf).toMatch(/jetstream\s*\{[^}]*sync_interval:\s*always[^}]*\}/);
    expect(compose.services.nats!.command).toEqual(["-c", "/etc/nats/nats-server.conf"]);
  });
});

describe("NATS users and TLS in compose", () => {
  // Every process that connects to NATS, by compose service: its NATS user.
  const natsUsers: Record<string, string> = Object.fromEntries([...deployedServices.map((s) => [s.name, s.name]), ["admin", "admin"]]);
  const natsEnv = compose.services.nats!.environment ?? {};

  test("NATS reads the generated users, with each password from its environment", () => {
    expect(compose.services.nats!.volumes).toContain("./infra/nats/auth.conf:/etc/nats/auth.conf:ro");
    const auth = readFileSync(fromRoot("infra/nats/auth.conf"), "utf8");
    for (const user of NATS_USERS) {
      expect(auth, user).toContain(`password: $${passwordVariable(user)}\n`);
      expect(natsEnv[passwordVariable(user)], user).toBeTruthy();
    }
  });

  test.each(Object.entries(natsUsers))("%s signs in as NATS user %s with that user's password, by default and when set", (service, user) => {
    expect(compose.services[service]!.environment?.NATS_USER).toBe(user);
    expect(compose.services[service]!.environment?.NATS_PASSWORD).toBe(natsEnv[passwordVariable(user)]);
    const set = loadCompose({ [passwordVariable(user)]: "from-the-environment" });
    expect(set.services[service]!.environment?.NATS_PASSWORD).toBe("from-the-environment");
    expect(set.services.nats!.environment?.[passwordVariable(user)]).toBe("from-the-environment");
  });

  test("no service but admin holds the admin password; the admin command line is the gateway image's", () => {
    const adminPassword = natsEnv[passwordVariable("admin")];
    expect(entries.filter(([name, s]) => name !== "nats" && Object.values(s.environment ?? {}).includes(adminPassword!)).map(([n]) => n)).toEqual(["admin"]);
    const admin = compose.services.admin as ComposeService & { entrypoint?: string[] };
    expect(admin.build?.target).toBe("gateway");
    expect(admin.entrypoint).toEqual(["node", "services/gateway/src/admin/main.ts"]);
  });

  test("infra/compose/nats-tls.yml makes NATS require TLS and every client check its certificate", () => {
    const text = readFileSync(fromRoot("infra/compose/nats-tls.yml"), "utf8");
    expect(() => loadCompose({}, text)).toThrow(/NATS_TLS_DIR/);
    const tls = loadCompose({ NATS_TLS_DIR: "/certs" }, text);
    expect(composeSchemaErrors(tls)).toEqual([]);
    expect(tls.services.nats!.command).toEqual(expect.arrayContaining(["--tls", "--tlscert", "--tlskey"]));
    expect(tls.services.nats!.command!.slice(0, 2)).toEqual(compose.services.nats!.command);
    expect(Object.keys(tls.services).filter((n) => n !== "nats").sort()).toEqual(Object.keys(natsUsers).sort());
    for (const service of Object.keys(natsUsers)) {
      expect(tls.services[service]!.environment, service).toEqual({ NATS_URL: "tls://nats:4222", NATS_TLS_CA: "/etc/adrank/nats-tls/ca.pem" });
      expect(tls.services[service]!.volumes, service).toEqual(["/certs/ca.pem:/etc/adrank/nats-tls/ca.pem:ro"]);
    }
  });
});

describe("Postgres roles in compose", () => {
  // Every process that uses Postgres (packages/db/src/service-roles.ts): its own login role.
  const databaseUsers = ["gateway", "ledger", "dashboard", "admin"];
  const migrateEnv = compose.services.migrate!.environment!;
  const owner = migrateEnv.DATABASE_URL!;
  const userOf = (url: string) => decodeURIComponent(new URL(url).username);
  const urlsOf = (service: ComposeService) => Object.values(service.environment ?? {}).filter((v) => typeof v === "string" && v.startsWith("postgres://"));

  test("only the migrate step signs in as the owner of the tables, the user the postgres container creates", () => {
    expect(userOf(owner)).toBe(compose.services.postgres!.environment!.POSTGRES_USER);
    expect(entries.filter(([, s]) => urlsOf(s).some((u) => userOf(u) === userOf(owner))).map(([n]) => n)).toEqual(["migrate"]);
    // And it makes the services' login roles from their URLs.
    expect(compose.services.migrate!.command).toEqual(["node", "packages/db/src/migrate-cli.ts", "--login-roles"]);
  });

  test.each(databaseUsers)("%s signs in as a login role of its own, which the migrate step makes from the very same URL and password", (service) => {
    const url = compose.services[service]!.environment!.DATABASE_URL!;
    expect(userOf(url)).toBe(`adrank_${service}_login`);
    expect(migrateEnv[`${service.toUpperCase()}_DATABASE_URL`]).toBe(url);
    const set = loadCompose({ [`POSTGRES_${service.toUpperCase()}_PASSWORD`]: "from-the-environment" });
    expect(new URL(set.services[service]!.environment!.DATABASE_URL!).password).toBe("from-the-environment");
    expect(set.services.migrate!.environment![`${service.toUpperCase()}_DATABASE_URL`]).toBe(set.services[service]!.environment!.DATABASE_URL);
  });

  test("no two processes share a login, and services that never use Postgres get no connection string", () => {
    const users = entries.filter(([name]) => name !== "migrate").flatMap(([, s]) => urlsOf(s).map(userOf));
    expect(users.sort()).toEqual(databaseUsers.map((s) => `adrank_${s}_login`).sort());
    for (const name of ["scorer", "panel-voter", "refinement"]) expect(compose.services[name]!.environment?.DATABASE_URL, name).toBeUndefined();
  });
});

describe("the ollama profile", () => {
  test("adds Ollama and the one-shot model pull only under the profile", () => {
    const profiled = entries.filter(([, s]) => s.profiles !== undefined).map(([n, s]) => [n, s.profiles]);
    expect(profiled).toEqual([
      ["admin", ["admin"]],
      ["ollama", ["ollama"]],
      ["ollama-pull", ["ollama"]],
    ]);
    expect(compose.services["ollama-pull"]!.depends_on?.ollama).toEqual({ condition: "service_healthy" });
    expect(ollamaEnv.COMPOSE_PROFILES).toBe("ollama");
  });

  test("configures the services for Ollama's OpenAI-compatible API, and pulls every model they name", () => {
    const env = withOllama.services.scorer!.environment!;
    const models = loadConfig(ModelsEnv, env);
    expect(models.OPENAI_BASE_URL).toBe("http://ollama:11434/v1");
    const refs = [...models.ADRANK_GENERATORS, models.ADRANK_EMBEDDER, ...models.voters];
    expect(refs.every((r) => r.provider === "openai")).toBe(true);
    const pulled = withOllama.services["ollama-pull"]!.environment!.OLLAMA_MODELS_TO_PULL!.split(/\s+/);
    expect(pulled).toEqual(expect.arrayContaining(refs.map((r) => r.model)));
    expect(pulled).toContain("nomic-embed-text");
  });

  test("the default stack needs no provider: the services run on the offline sim models", () => {
    const models = loadConfig(ModelsEnv, compose.services.scorer!.environment!);
    expect([...models.ADRANK_GENERATORS, models.ADRANK_EMBEDDER, ...models.voters].map((r) => r.provider)).toEqual(["sim", "sim", "sim", "sim"]);
  });

  test("a mixed panel reaches the services: ADRANK_VOTERS passes through and ADRANK_VOTER stays out of its way", () => {
    const mixed = loadCompose({ ADRANK_VOTERS: "sim:sim-voter-a,sim:sim-voter-b" });
    const models = loadConfig(ModelsEnv, mixed.services["panel-voter"]!.environment!);
    expect(models.voters.map((r) => r.model)).toEqual(["sim-voter-a", "sim-voter-b"]);
  });
});
