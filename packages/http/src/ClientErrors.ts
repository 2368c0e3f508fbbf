/**
 * Requests Node's HTTP parser refuses before any handler runs. Without a `clientError` listener
 * Node answers them itself, with an empty body: 431 for a request line and headers over
 * `maxHeaderSize` (16 KB, so a long URL), 408 for a request not received within
 * `requestTimeout`, 400 for anything else malformed. Here they get the contract's error body
 * and an `X-Request-Id` like every other answer; the connection is closed, as Node does.
 *
 * @since 0.1.0
 */
import * as http from "node:http"
import type { Duplex } from "node:stream"
import { Effect } from "effect"
import * as ApiErrors from "./ApiErrors.js"
import * as RequestId from "./RequestId.js"

/**
 * Node's request-line and header limit, in bytes (its default, stated here so that the answer's
 * message and the server agree).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_HEADER_BYTES = 16 * 1024

const REASONS: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" }

/**
 * The answer to a parser error (its `code`, e.g. `HPE_HEADER_OVERFLOW`): status, error class
 * and message.
 *
 * @since 0.1.0
 * @category answers
 */
export const classify = (code: string | undefined): { readonly cls: ApiErrors.Class; readonly message: string } => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        cls: ApiErrors.RequestHeaderFieldsTooLarge,
        message: `The request line and headers are over ${MAX_HEADER_BYTES / 1024} KB together: shorten the URL or the headers.`
      }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { cls: ApiErrors.RequestTimeout, message: "The request was not received in time." }
    default:
      return { cls: ApiErrors.MalformedRequest, message: "The request is not valid HTTP/1.1." }
  }
}

/**
 * Answers a parser error on `socket` with the contract's error body, then closes it.
 *
 * @since 0.1.0
 * @category answers
 */
export const answer = (error: Error & { readonly code?: string }, socket: Duplex): void => {
  // Nothing to answer on a connection the client reset or that already has an answer going.
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy()
    return
  }
  const { cls, message } = classify(error.code)
  const requestId = Effect.runSync(RequestId.make)
  const problem = ApiErrors.make(cls, { message, request_id: requestId })
  const status = ApiErrors.statusOf(problem)
  const body = JSON.stringify(problem.error)
  socket.end(
    [
      `HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}`,
      "content-type: application/json",
      `content-length: ${Buffer.byteLength(`{"error":${body}}`)}`,
      `${RequestId.header}: ${requestId}`,
      "x-content-type-options: nosniff",
      "cache-control: no-store",
      "connection: close",
      "",
      `{"error":${body}}`
    ].join("\r\n")
  )
}

/**
 * `http.createServer` with `answer` as its `clientError` listener and the header limit stated.
 *
 * @since 0.1.0
 * @category constructors
 */
export const createServer = (options: http.ServerOptions = {}): http.Server => {
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, ...options })
  server.on("clientError", answer)
  return server
}
