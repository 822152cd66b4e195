import type { Page } from "playwright-core";
import { creative } from "../support/png.ts";

/** A PNG creative as playwright's setInputFiles takes it. */
export const pngFile = (name: string, variant: number) => ({ name, mimeType: "image/png", buffer: Buffer.from(creative(variant).split(",")[1]!, "base64") });

/**
 * Every Content-Security-Policy violation the page reports, from the console (chromium logs
 * "Refused to …") and from uncaught page errors. The console's CSP forbids inline styles and
 * scripts, so a chart or widget that writes a style attribute shows up here.
 */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (apply|execute|load|connect)/i.test(msg.text())) violations.push(msg.text());
  });
  page.on("pageerror", (err) => {
    if (/Content Security Policy/i.test(err.message)) violations.push(err.message);
  });
  return violations;
}

/** Today as the usage page writes it in the tooltip and the table (the page runs in en-US, UTC). */
export const longToday = () => new Date().toLocaleDateString("en-US", { timeZone: "UTC", weekday: "short", month: "short", day: "numeric", year: "numeric" });
