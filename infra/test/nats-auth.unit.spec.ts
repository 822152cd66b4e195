import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { NATS_USERS, topology } from "@adrank/messaging";
import { authConfigFiles, natsAuthorizationConf, passwordVariable } from "../nats/auth-config.ts";
import { fromRoot } from "./support/paths.ts";

const NATS_SERVER = "/usr/sbin/nats-server";

type HelmUser = { user: string; password: string; permissions: { publish: { allow?: string[]; deny?: string[] }; subscribe: { allow?: string[] }; allow_responses?: boolean } };
type HelmAuth = { config: { merge: { authorization: { users: HelmUser[] } } }; container: { env: Record<string, { valueFrom: { secretKeyRef: { name: string; key: string } } }> } };
const helm = (path: string) => parse(readFileSync(fromRoot(path), "utf8")) as HelmAuth;
const publishAllow = (values: HelmAuth, user: string) => values.config.merge.authorization.users.find((u) => u.user === user)!.permissions.publish.allow ?? [];

describe("the NATS users of the deployment files", () => {
  test.each(authConfigFiles())("$path is what `npm run nats:auth` writes from the services' permissions", ({ path, content }) => {
    expect(readFileSync(fromRoot(path), "utf8"), `${path} is stale: run npm run nats:auth`).toBe(content);
  });

  test("production's Helm values let only the admin user grant credits; the dev values let the console grant sign-up credits too", () => {
    const grant = topology("").ledgerRpc.grant;
    const prod = helm("infra/helm/nats-auth-values.yaml");
    const dev = helm("infra/helm/nats-auth-values-dev.yaml");
    expect(prod.config.merge.authorization.users.filter((u) => publishAllow(prod, u.user).includes(grant)).map((u) => u.user)).toEqual(["admin"]);
    expect(dev.config.merge.authorization.users.filter((u) => publishAllow(dev, u.user).includes(grant)).map((u) => u.user)).toEqual(["dashboard", "admin"]);
    // Nothing at all, not an empty allow list (which NATS reads as "everything").
    expect(prod.config.merge.authorization.users.find((u) => u.user === "dashboard")!.permissions.publish).toEqual({ deny: [">"] });
  });

  test("every Helm user's password is a variable of the server's environment, read from its key in the nats-users Secret", () => {
    for (const path of ["infra/helm/nats-auth-values.yaml", "infra/helm/nats-auth-values-dev.yaml"]) {
      const values = helm(path);
      expect(values.config.merge.authorization.users.map((u) => u.user)).toEqual([...NATS_USERS]);
      for (const u of values.config.merge.authorization.users) {
        expect(u.password).toBe(`<< $${passwordVariable(u.user)} >>`);
        expect(values.container.env[passwordVariable(u.user)]).toEqual({ valueFrom: { secretKeyRef: { name: "nats-users", key: u.user } } });
      }
    }
  });

  test("compose's NATS configuration includes the users", () => {
    expect(readFileSync(fromRoot("infra/nats/nats-server.conf"), "utf8")).toMatch(/^include \.\/auth\.conf$/m);
  });

  test.skipIf(!existsSync(NATS_SERVER))("nats-server accepts the compose users with every password in its environment, and refuses to start without one", () => {
    const dir = mkdtempSync(join(tmpdir(), "adrank-nats-conf-"));
    try {
      writeFileSync(join(dir, "auth.conf"), readFileSync(fromRoot("infra/nats/auth.conf")));
      writeFileSync(join(dir, "nats.conf"), "port: 4222\ninclude ./auth.conf\n");
      const env: Record<string, string> = { PATH: process.env.PATH ?? "", ...Object.fromEntries(NATS_USERS.map((u) => [passwordVariable(u), `pw-${u}`])) };
      const check = (e: Record<string, string>) => execFileSync(NATS_SERVER, ["-t", "-c", join(dir, "nats.conf")], { env: e, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      expect(() => check(env)).not.toThrow();
      const { NATS_ADMIN_PASSWORD: _admin, ...withoutAdmin } = env;
      expect(() => check(withoutAdmin)).toThrow(/NATS_ADMIN_PASSWORD/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("literal passwords (tests) are quoted, and a user without permissions is let do everything (a test harness)", () => {
    const conf = natsAuthorizationConf({ passwords: Object.fromEntries(NATS_USERS.map((u) => [u, `p"${u}`])) as never, consoleSignupGrants: false, extraUsers: [{ user: "harness", password: "h" }] });
    expect(conf).toContain(`password: "p\\"gateway"`);
    expect(conf).toMatch(/user: "harness"\n\s+password: "h"\n\s+\}/);
  });
});
