import type { Socket } from "node:net";

/**
 * Requests Node's HTTP parser refuses before fastify sees them (oversized headers, a broken
 * request line, conflicting lengths) still get the spec's `{error}` body with a sentence,
 * then the connection closes: after a framing error nothing else on it can be trusted.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  const body = JSON.stringify({ error: tooLarge ? "The request's headers are larger than the 16 KiB the server accepts." : "The request is not valid HTTP/1.1 and could not be read." });
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
