/** A request body: text and bytes go out as they are, anything else as JSON. */
export type Body = string | Buffer | object;

/** Values only known once the stack runs; bodies that need them are functions of this. */
export interface CorpusContext {
  /**
   * A loopback port where the runner's trap listens, on 127.0.0.1 and on ::1. The gateway must
   * refuse every URL that points there, so a connection arriving is an SSRF. Case names write
   * the port as `TRAP`.
   */
  trapPort: number;
  /** A saved audience that belongs to another account: never visible to the case's own key. */
  otherAudienceId: string;
}

/** A response body as parsed JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- checks read fields of many shapes
export type Json = Record<string, any>;

/** What a hostile request must get back. */
export type Expectation =
  /** A refusal with this status (or one of these), a JSON `{error}` sentence and, if given, this `field`. */
  | { status: number | readonly number[]; field?: string; error?: RegExp }
  /**
   * Rank: 200 where exactly these assets (by id) failed, each with an `errors` entry whose sentence
   * matches; every other asset is ranked and billed, the failed ones are not.
   */
  | { assetErrors: Readonly<Record<string, RegExp>> }
  /** Pairwise: 200 with the (single) pair in status `error`, its sentence matching, nothing billed. */
  | { pairError: RegExp }
  /** Processed normally: 2xx, no per-asset error, every pair done; then the optional check. */
  | { ok: true; check?: (body: Json) => void }
  /** Either of these answers is acceptable (the spec leaves the choice open). */
  | { anyOf: readonly Expectation[] };

export interface HostileCase {
  category: string;
  /** Unique within the corpus; the test's name. */
  name: string;
  method?: "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS" | "TRACE";
  /** Sent exactly as written (no normalization of `..` or escapes). */
  path: string;
  body?: Body | ((ctx: CorpusContext) => Body);
  /** Default `application/json` when there is a body; `null` sends no Content-Type. */
  contentType?: string | null;
  /**
   * Default: `Bearer <the case's own valid key>`. `null` sends no Authorization header; a string
   * or list is sent as the header value(s); a function derives them from the valid key.
   */
  auth?: null | string | readonly string[] | ((key: string) => string | readonly string[]);
  headers?: Record<string, string>;
  /** Bytes written as they are to a TCP connection instead of a well-formed HTTP request. */
  raw?: (key: string) => string | Buffer;
  expect: Expectation;
}
