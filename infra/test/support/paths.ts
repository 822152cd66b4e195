import { fileURLToPath } from "node:url";

/** The repository root: every deployment file is addressed from here. */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const fromRoot = (path: string) => fileURLToPath(new URL(path, new URL("../../../", import.meta.url)));
