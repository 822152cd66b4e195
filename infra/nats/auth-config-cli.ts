// Writes the NATS users of the deployment files from the one source of their permissions:
//   npm run nats:auth                                   the checked-in files (ADRANK_NAMESPACE empty)
//   npm run nats:auth -- --namespace prod2 --out-dir d  the same for a namespaced deployment, into d/
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { authConfigFiles } from "./auth-config.ts";

const { values } = parseArgs({ options: { namespace: { type: "string", default: "" }, "out-dir": { type: "string" } }, strict: true });
const root = fileURLToPath(new URL("../../", import.meta.url));
const outDir = values["out-dir"] ?? root;
for (const file of authConfigFiles(values.namespace)) {
  const target = join(outDir, file.path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, file.content);
  console.log(`wrote ${target}`);
}
