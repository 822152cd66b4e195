import { describe, expect, it } from "vitest";
import { isMalformedCookie, readCookie, sessionCookie } from "../src/cookies.ts";
import { csrfProblem } from "../src/csrf.ts";
import { hashPassword, passwordProblem, verifyPassword } from "../src/password.ts";

describe("console security parts", () => {
  it("hashes passwords with scrypt and a salt, and verifies only the right one", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("anything", "not-a-hash")).toBe(false);
    expect(passwordProblem("short")).toMatch(/at least 10/);
    expect(passwordProblem("x".repeat(201))).toMatch(/at most 200/);
    expect(passwordProblem("long enough pass")).toBeNull();
  });

  it("accepts a state change only with the session's token and from its own origin", () => {
    const base = { method: "POST", sessionToken: "tok123", headerToken: "tok123", origin: "http://console.test", host: "console.test" };
    expect(csrfProblem(base)).toBeNull();
    expect(csrfProblem({ ...base, headerToken: undefined })).toMatch(/reload/);
    expect(csrfProblem({ ...base, headerToken: "tok124" })).toMatch(/reload/);
    expect(csrfProblem({ ...base, origin: "https://evil.example" })).toMatch(/another site/);
    expect(csrfProblem({ ...base, method: "GET", headerToken: undefined })).toBeNull();
    expect(csrfProblem({ ...base, sessionToken: null, headerToken: undefined })).toBeNull();
  });

  it("sets an httpOnly SameSite=Strict session cookie, Secure behind HTTPS, and reads it back", () => {
    const cookie = sessionCookie("abc/=", { maxAgeS: 3600, secure: true });
    expect(cookie).toBe("adrank_session=abc%2F%3D; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600; Secure");
    expect(sessionCookie("x", { maxAgeS: 1, secure: false })).not.toContain("Secure");
    expect(readCookie("a=1; adrank_session=abc%2F%3D; b=2", "adrank_session")).toBe("abc/=");
    expect(readCookie(undefined, "adrank_session")).toBeNull();
  });

  it("calls a session cookie with a broken escape malformed (a 400), and ignores broken cookies of other names", () => {
    let thrown: unknown;
    try {
      readCookie("adrank_session=%E0%A4%A", "adrank_session");
    } catch (err) {
      thrown = err;
    }
    expect(isMalformedCookie(thrown)).toBe(true);
    expect(thrown).toMatchObject({ statusCode: 400, cookie: "adrank_session" });
    expect(readCookie("other=%E0%A4%A; adrank_session=ok", "adrank_session")).toBe("ok");
  });
});
