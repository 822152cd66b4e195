import { z } from "zod";

/**
 * Application errors cross NATS as a checked envelope, never as thrown text, so the caller
 * branches on `code` and shows `message` without guessing.
 */
export const RpcError = z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() });
export type RpcError = z.infer<typeof RpcError>;

export const rpcReply = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion("ok", [z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: RpcError })]);

export type RpcReply<T> = { ok: true; value: T } | { ok: false; error: RpcError };
