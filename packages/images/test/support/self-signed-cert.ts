import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCert {
  key: string;
  cert: string;
}

/** Names the test certificate is valid for; the injected resolver maps them to 127.0.0.1. */
export const TEST_HOST_NAMES = ["localhost", "images.test", "cdn.images.test"];

/** A throw-away self-signed certificate for 127.0.0.1, ::1 and the test names, made by openssl. */
export function makeSelfSignedCert(): TestCert {
  const dir = mkdtempSync(join(tmpdir(), "images-cert-"));
  try {
    const san = ["IP:127.0.0.1", "IP:::1", ...TEST_HOST_NAMES.map((n) => `DNS:${n}`)].join(",");
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-subj", "/CN=localhost", "-addext", `subjectAltName=${san}`,
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
    ], { stdio: "ignore" });
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
