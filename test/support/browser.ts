import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Debian's chromium: the browser CI installs (scripts/ensure-chromium.sh). */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Whether a browser test can run. Never a silent skip in CI, where the browser is part of what
 * gets installed; a developer without it is told which file was skipped and how to install it.
 */
export function chromiumAvailable(specName: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === "true") throw new Error(`${CHROMIUM} is missing: run bash scripts/ensure-chromium.sh`);
  console.warn(`${specName} SKIPPED: ${CHROMIUM} is missing (bash scripts/ensure-chromium.sh installs it)`);
  return false;
}

/** Headless, and with no traffic of its own: the tests may reach only 127.0.0.1. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
