import { describe, expect, it } from "vitest";
import { evolve, initialState, windowRemaining, type LedgerEvent, type ModelUsage } from "../src/index.ts";
import { balance, expired, given, granted, reserved, settle, settled, T0 } from "./decider-spec.ts";

// Settling records the calls and tokens a request spent per model on UsageSettled, for cost
// accounting. Credits and rate windows follow units alone, as before.

const open = [granted(10), reserved("r1", 5, T0 - 1_000)];
const mini: ModelUsage = { model: "openai:gpt-5-mini", calls: 6, inputTokens: 4_812, outputTokens: 310 };
const embed: ModelUsage = { model: "openai:text-embedding-3-small", calls: 6, inputTokens: 620, outputTokens: 0 };
const withUsage = (event: LedgerEvent, modelUsage: ModelUsage[]): LedgerEvent => ({ ...event, modelUsage }) as LedgerEvent;

describe("SettleUsage with model usage", () => {
  it("records the usage on UsageSettled and charges, releases and counts exactly as without it", () => {
    const plain = given(open).when(settle("r1", 3), T0).then([settled("r1", 5, 3, T0 - 1_000, T0)]);
    const counted = given(open)
      .when(settle("r1", 3, [mini, embed]), T0)
      .then([withUsage(settled("r1", 5, 3, T0 - 1_000, T0), [mini, embed])]);
    expect(balance(counted)).toEqual({ available: 7, reserved: 0, granted: 10, used: 3 });
    expect(counted).toEqual(plain);
    expect(windowRemaining(counted, "k1", "scoring", T0)).toBe(windowRemaining(plain, "k1", "scoring", T0));
  });

  it("carries no modelUsage field when the settle reports none, an empty list, or only zeros", () => {
    for (const usage of [undefined, [], [{ model: "sim:idle", calls: 0, inputTokens: 0, outputTokens: 0 }]]) {
      const { decision } = given(open).when(settle("r1", 3, usage), T0);
      expect(decision).toEqual({ events: [settled("r1", 5, 3, T0 - 1_000, T0)] });
      expect("events" in decision && "modelUsage" in decision.events[0]!).toBe(false);
    }
  });

  it("sums the entries of one model into one, in order of first appearance, and drops all-zero entries", () => {
    const usage = [
      { model: "anthropic:claude-sonnet-4-6", calls: 3, inputTokens: 900, outputTokens: 40 },
      mini,
      { model: "sim:unused", calls: 0, inputTokens: 0, outputTokens: 0 },
      { model: "anthropic:claude-sonnet-4-6", calls: 3, inputTokens: 1_000, outputTokens: 60 },
    ];
    given(open)
      .when(settle("r1", 3, usage), T0)
      .then([withUsage(settled("r1", 5, 3, T0 - 1_000, T0), [{ model: "anthropic:claude-sonnet-4-6", calls: 6, inputTokens: 1_900, outputTokens: 100 }, mini])]);
  });

  it("records the tokens of a request that charged nothing: the models were still called", () => {
    given(open)
      .when(settle("r1", 0, [mini]), T0)
      .then([withUsage(settled("r1", 5, 0, T0 - 1_000, T0), [mini])]);
  });

  it("answers a repeated settle with AlreadySettled and no event, so its tokens are not counted twice", () => {
    const history = [...open, withUsage(settled("r1", 5, 3, T0 - 1_000, T0 - 10), [mini])];
    given(history).when(settle("r1", 3, [mini]), T0).thenRejects({ type: "AlreadySettled", reservationId: "r1", unitsUsed: 3 });
    given(history).when(settle("r1", 3, [embed]), T0).thenRejects({ type: "AlreadySettled", reservationId: "r1", unitsUsed: 3 });
  });

  it("refuses a late settle with usage of an expired reservation: it records nothing", () => {
    given([...open, expired("r1", 5, T0 - 1_000, T0 - 10)])
      .when(settle("r1", 5, [mini]), T0)
      .thenRejects({ type: "ReservationAlreadyExpired", reservationId: "r1", expiredAt: T0 - 10 });
  });

  it.each([
    ["negative tokens", [{ ...mini, inputTokens: -1 }]],
    ["fractional calls", [{ ...mini, calls: 1.5 }]],
    ["an empty model", [{ ...mini, model: "" }]],
    ["a missing count", [{ model: "sim:a", calls: 1, inputTokens: 2 }]],
    ["an unsafe integer", [{ ...mini, outputTokens: 2 ** 60 }]],
    ["sums past a safe integer", [{ ...mini, inputTokens: Number.MAX_SAFE_INTEGER }, { ...mini, inputTokens: 1 }]],
    ["not a list", { model: "sim:a" }],
  ])("refuses %s as malformed, changing nothing", (_what, modelUsage) => {
    expect(given(open).when(settle("r1", 3, modelUsage as ModelUsage[]), T0).decision).toMatchObject({ rejection: { type: "InvalidCommand" } });
  });

  it("sums cache counts per model, keeps them absent where no entry reports them, and refuses malformed ones", () => {
    const sonnet = "anthropic:claude-sonnet-4-6";
    const usage = [
      { model: sonnet, calls: 3, inputTokens: 3_000, outputTokens: 40, cachedInputTokens: 2_000, cacheWriteInputTokens: 900 },
      mini,
      { model: sonnet, calls: 3, inputTokens: 3_000, outputTokens: 60, cachedInputTokens: 2_900 },
      { model: "openai:gpt-4o", calls: 1, inputTokens: 1_500, outputTokens: 5, cachedInputTokens: 0 },
    ];
    given(open)
      .when(settle("r1", 3, usage), T0)
      .then([
        withUsage(settled("r1", 5, 3, T0 - 1_000, T0), [
          { model: sonnet, calls: 6, inputTokens: 6_000, outputTokens: 100, cachedInputTokens: 4_900, cacheWriteInputTokens: 900 },
          mini,
          { model: "openai:gpt-4o", calls: 1, inputTokens: 1_500, outputTokens: 5, cachedInputTokens: 0 },
        ]),
      ]);
    const plain = given(open).when(settle("r1", 3, [mini]), T0).decision;
    const event = "events" in plain ? plain.events[0] : undefined;
    expect(event?.type === "UsageSettled" ? Object.keys(event.modelUsage![0]!) : null).toEqual(["model", "calls", "inputTokens", "outputTokens"]);
    for (const bad of [{ ...mini, cachedInputTokens: -1 }, { ...mini, cacheWriteInputTokens: 0.5 }, { ...mini, cachedInputTokens: "10" }]) {
      expect(given(open).when(settle("r1", 3, [bad as ModelUsage]), T0).decision).toMatchObject({ rejection: { type: "InvalidCommand", reason: expect.stringContaining("cachedInputTokens and cacheWriteInputTokens") } });
    }
  });

  it("drops the cache counts of an entry whose counts exceed its input, and still settles: the input counts as uncached", () => {
    const usage = [
      { ...mini, cachedInputTokens: 4_813 }, // more than its 4,812 input tokens
      { ...mini, cachedInputTokens: 3_000, cacheWriteInputTokens: 1_813 }, // 4,813 together
      { ...mini, cachedInputTokens: 4_000, cacheWriteInputTokens: 812 }, // exactly all of it: kept
    ];
    given(open)
      .when(settle("r1", 3, usage), T0)
      .then([withUsage(settled("r1", 5, 3, T0 - 1_000, T0), [{ ...mini, calls: 18, inputTokens: 14_436, outputTokens: 930, cachedInputTokens: 4_000, cacheWriteInputTokens: 812 }])]);
    expect(balance(given(open).when(settle("r1", 3, usage), T0).after())).toEqual({ available: 7, reserved: 0, granted: 10, used: 3 });
  });

  it("folds an event with usage, also as read back from the stream, to the state of one without", () => {
    const plain = [...open, settled("r1", 5, 3, T0 - 1_000, T0)];
    const counted = [...open, withUsage(settled("r1", 5, 3, T0 - 1_000, T0), [mini])];
    const replayed = (JSON.parse(JSON.stringify(counted)) as LedgerEvent[]).reduce(evolve, initialState());
    expect(replayed).toEqual(plain.reduce(evolve, initialState()));
  });
});
