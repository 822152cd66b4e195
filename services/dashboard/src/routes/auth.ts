import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardDeps, Repos } from "../deps.ts";
import { DEVICE_COOKIE, deviceCookie, readCookie, SESSION_COOKIE, sessionCookie } from "../cookies.ts";
import { Credentials } from "../credentials.ts";
import { tryAgainIn } from "../fixed-window.ts";
import { hashPassword, passwordProblem, verifyPassword } from "../password.ts";
import { PUBLIC_ROUTE, requireUser } from "../require-user.ts";

// Compared against when the email is unknown, so a wrong email costs as long as a wrong password.
const DECOY_HASH = await hashPassword(randomUUID());

export async function authRoutes(app: FastifyInstance, { deps, repos }: { deps: DashboardDeps; repos: Repos }) {
  /** The session, and the browser remembered as a known device of the email (sign-in-limiter.ts). */
  const startSession = async (reply: FastifyReply, userId: string, deviceToken: string) => {
    await repos.sessions.prune();
    const session = await repos.sessions.create(userId);
    reply.header("set-cookie", sessionCookie(session.token, { maxAgeS: Math.floor(deps.sessionTtlMs / 1000), secure: deps.secureCookies }));
    reply.header("set-cookie", deviceCookie(deviceToken, { maxAgeS: deps.signInLimiter.deviceMaxAgeS, secure: deps.secureCookies }));
  };
  // A broken device cookie is no device cookie: the sign-in is counted as any unknown client's.
  const deviceTokenOf = (request: FastifyRequest) => {
    try {
      return readCookie(request.headers.cookie, DEVICE_COOKIE);
    } catch {
      return null;
    }
  };

  app.post("/signup", PUBLIC_ROUTE, async (request, reply) => {
    const parsed = Credentials.safeParse(request.body);
    if (!parsed.success) return reply.code(422).send({ error: "Enter a valid email address and a password.", field: String(parsed.error.issues[0]?.path[0] ?? "email") });
    const { email, password } = parsed.data;
    const weak = passwordProblem(password);
    if (weak) return reply.code(422).send({ error: weak, field: "password" });
    // Counted before anything is looked up, hashed or created: the limit also caps scrypt's cost.
    const allowed = await deps.signUpLimiter.take(request.ip);
    if (!allowed.ok) {
      request.log.warn({ limit: allowed.reason, retryAfter: allowed.retryAfter }, "console sign-up refused by its limit");
      const error = allowed.reason === "global" ? `Sign-up is paused for a while: too many new accounts were made recently. ${tryAgainIn(allowed.retryAfter)}` : `Too many sign-ups from your network. ${tryAgainIn(allowed.retryAfter)}`;
      return reply.code(429).header("retry-after", String(allowed.retryAfter)).send({ error, retryAfter: allowed.retryAfter });
    }
    const taken = () => reply.code(409).send({ error: "An account with this email exists; sign in instead.", field: "email" });
    if (await repos.users.exists(email)) return taken();
    const passwordHash = await hashPassword(password);
    // null: a sign-up racing with this one took the email first; it alone got an account.
    const created = await repos.users.createWithAccount({ email, passwordHash });
    if (!created) return taken();
    const { userId, accountId } = created;
    if (deps.signupCredits > 0) {
      const granted = await deps.ledger.grant({ accountId, grantId: `signup-${accountId}`, credits: deps.signupCredits, reason: "sign-up credits" });
      if (!granted.ok) request.log.warn({ accountId, rejection: granted.rejection.type }, "sign-up credits were not granted");
    }
    await startSession(reply, userId, deps.signInLimiter.rememberDevice(email));
    request.log.info({ accountId }, "console sign-up");
    return reply.code(201).send({ email, accountId });
  });

  app.post("/signin", PUBLIC_ROUTE, async (request, reply) => {
    const parsed = Credentials.safeParse(request.body);
    if (!parsed.success) return reply.code(422).send({ error: "Enter your email address and password." });
    const { email, password } = parsed.data;
    // Counted as a failure before the password is checked, so parallel guesses cannot outrun the limit.
    const allowed = await deps.signInLimiter.begin(email, request.ip, deviceTokenOf(request));
    if (!allowed.ok) return reply.code(429).header("retry-after", String(allowed.retryAfter)).send({ error: `Too many failed sign-ins. ${tryAgainIn(allowed.retryAfter)}`, retryAfter: allowed.retryAfter });
    const user = await repos.users.findCredentials(email);
    const ok = await verifyPassword(password, user?.passwordHash ?? DECOY_HASH);
    if (!user || !ok) return reply.code(401).send({ error: "That email and password do not match." });
    await startSession(reply, user.userId, await deps.signInLimiter.succeed(allowed.attempt));
    return { email };
  });

  app.post("/signout", PUBLIC_ROUTE, async (request, reply) => {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (token) await repos.sessions.destroy(token);
    reply.header("set-cookie", sessionCookie("", { maxAgeS: 0, secure: deps.secureCookies }));
    return reply.code(204).send();
  });

  app.get("/me", { preHandler: requireUser }, async (request) => ({ email: request.user!.email, accountId: request.user!.accountId, csrfToken: request.user!.csrfToken }));
}
