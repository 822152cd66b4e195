import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { loadCompose } from "./support/compose.ts";
import { baseImage, effectiveInstructions, parseDockerfile } from "./support/dockerfile.ts";
import { fromRoot } from "./support/paths.ts";
import { deployedServices, servicesInRepository } from "./support/services.ts";

const dockerfile = parseDockerfile();
const last = (stage: string, keyword: string) => effectiveInstructions(dockerfile, stage).filter((i) => i.keyword === keyword).at(-1)?.args;
const json = (args: string | undefined) => (args === undefined ? undefined : (JSON.parse(args) as string[]));

describe("Dockerfile", () => {
  test.each(deployedServices)("target $name runs its entry point on node:24-slim as a non-root user, with a health check", ({ name, port, portVariable }) => {
    expect(baseImage(dockerfile, name)).toBe("node:24-slim");
    expect(json(last(name, "CMD"))).toEqual(["node", "--import", "@adrank/telemetry/register", `services/${name}/src/main.ts`]);
    const user = last(name, "USER");
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(Number(user!.split(":")[0])).toBeGreaterThan(0);
    const healthcheck = last(name, "HEALTHCHECK");
    expect(healthcheck).toContain(`["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:${port}/healthz"]`);
    expect(last(name, "ENV")).toContain(`${portVariable}=${port}`);
  });

  test("the migrate target runs the migrations once and exits", () => {
    expect(json(last("migrate", "CMD"))).toEqual(["node", "packages/db/src/migrate-cli.ts"]);
    expect(last("migrate", "USER")).toMatch(/^[1-9]\d*(:\d+)?$/);
  });

  test("the gateway image carries the drift watch's reference batch, which its CronJob ranks", () => {
    const copies = effectiveInstructions(dockerfile, "gateway").filter((i) => i.keyword === "COPY").map((i) => i.args);
    for (const folder of ["examples/ads/", "examples/drift/"]) expect(copies).toContain(`${folder} ./${folder}`);
  });

  test("every service in the repository has a target", () => {
    const targets = dockerfile.stages.map((s) => s.name);
    expect(targets).toEqual(expect.arrayContaining(servicesInRepository()));
  });

  test("installs production dependencies only, from the lock, without install scripts", () => {
    const installs = dockerfile.stages.flatMap((s) => s.instructions).filter((i) => i.keyword === "RUN" && /\bnpm (install|ci)\b/.test(i.args));
    expect(installs).toHaveLength(1);
    expect(installs[0]!.args).toMatch(/npm install --omit=dev --ignore-scripts/);
    expect(effectiveInstructions(dockerfile, "deps").some((i) => i.keyword === "COPY" && i.args.includes("/manifests/"))).toBe(true);
    expect(readFileSync(fromRoot("Dockerfile"), "utf8")).toContain("cp package.json package-lock.json");
  });

  test("compose builds every adrank service from a target that exists", () => {
    const targets = new Set(dockerfile.stages.map((s) => s.name));
    for (const [name, service] of Object.entries(loadCompose().services)) {
      if (service.build?.context === ".") expect(targets.has(service.build.target), name).toBe(true);
    }
  });
});

describe(".dockerignore", () => {
  const patterns = readFileSync(fromRoot(".dockerignore"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));

  test("keeps local installs, git history and secrets out of the build context", () => {
    expect(patterns).toEqual(expect.arrayContaining(["**/node_modules", ".git", ".tools", ".env"]));
  });

  test("keeps every workspace manifest the install step reads", () => {
    // The root package.json lists `test` as a workspace: its manifest must reach the install.
    expect(patterns).toContain("!test/package.json");
  });
});
