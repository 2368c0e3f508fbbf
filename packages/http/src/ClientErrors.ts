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

const REASONS: Record<number, string> = {
  400: "Bad Request",
  404: "Not Found",
  408: "Request Timeout",
  431: "Request Header Fields Too Large"
}

/** The contract's error answer: status, headers (with a fresh request id) and body. */
const problem = (cls: ApiErrors.Class, message: string) => {
  const requestId = Effect.runSync(RequestId.make)
  const error = ApiErrors.make(cls, { message, request_id: requestId })
  const body = JSON.stringify({ error: error.error })
  return {
    status: ApiErrors.statusOf(error),
    headers: {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      [RequestId.header]: requestId,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
      connection: "close"
    },
    body
  }
}

/** Writes the answer on a bare socket (no `ServerResponse` exists yet), then closes it. */
const answerOn = (socket: Duplex, cls: ApiErrors.Class, message: string): void => {
  const { body, headers, status } = problem(cls, message)
  socket.end(
    [`HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "", body]
      .join("\r\n")
  )
}

// Connections whose request this module answered before the app saw it (`Server`): the parser
// error that may follow must not write a second answer on them.
const answered = new WeakSet<object>()

/**
 * Answers a parser error on `socket` with the contract's error body, then closes it.
 *
 * @since 0.1.0
 * @category answers
 */
export const answer = (error: Error & { readonly code?: string }, socket: Duplex): void => {
  if (answered.has(socket)) return
  // Nothing to answer on a connection the client reset or that already has an answer going.
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy()
    return
  }
  const { cls, message } = classify(error.code)
  answerOn(socket, cls, message)
}

/**
 * Why a request Node's parser let through must be refused before the app runs it, if it must:
 * an HTTP/1.1 request without `Host` (Node would answer 400 itself, with an empty body: its
 * check is off and done here instead; HTTP/1.0 needs none); a `Transfer-Encoding` whose last
 * coding is not `chunked`, whose body has no length (RFC 9112 §6.1: 400, and close). Node
 * hands the latter to the app and only then fails to parse: the app would run a request whose
 * client is answered 400.
 */
const refusal = (request: http.IncomingMessage): string | undefined => {
  if (request.httpVersionMajor === 1 && request.httpVersionMinor === 1 && request.headers.host === undefined) {
    return "An HTTP/1.1 request needs a Host header."
  }
  const codings = request.headers["transfer-encoding"]
  if (codings !== undefined && codings.split(",").at(-1)?.trim().toLowerCase() !== "chunked") {
    return "Transfer-Encoding must end with chunked: the body has no length otherwise."
  }
  return undefined
}

/** The server: `refusal`s answered before the `request` listener (the app) sees them. */
class Server extends http.Server {
  override emit(event: string | symbol, ...args: Array<any>): boolean {
    const message = event === "request" ? refusal(args[0]) : undefined
    if (message !== undefined) {
      const response = args[1] as http.ServerResponse
      answered.add(response.socket ?? {})
      const { body, headers, status } = problem(ApiErrors.MalformedRequest, message)
      response.writeHead(status, headers).end(body)
      return true
    }
    return super.emit(event as string, ...args)
  }
}

/**
 * `http.createServer` with `answer` as its `clientError` listener and the header limit stated.
 * More answers Node would otherwise give without the contract's body, or not at all: the
 * `refusal`s (400 `malformed_request`); an `Expect` other than
 * `100-continue` (Node's 417, empty; RFC 9110 lets a server ignore it instead, so the request
 * is served); `CONNECT` (Node closes the connection unanswered: 404 `route_not_found`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const createServer = (options: http.ServerOptions = {}): http.Server => {
  const server = new Server({ maxHeaderSize: MAX_HEADER_BYTES, ...options, requireHostHeader: false })
  server.on("clientError", answer)
  server.on("checkExpectation", (request, response) => server.emit("request", request, response))
  server.on("connect", (request: http.IncomingMessage, socket: Duplex) =>
    answerOn(socket, ApiErrors.RouteNotFound, `No operation CONNECT ${request.url?.slice(0, 256) ?? ""}.`))
  return server
}
