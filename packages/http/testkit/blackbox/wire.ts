/**
 * HTTP/1.1 requests written byte by byte on a fresh socket, for tests that send what a client
 * library would refuse or normalize: any method token and request target as given (dot segments,
 * bad percent-encoding, absolute form), header lines in order and repeated, header values in
 * Latin-1, and bodies of raw bytes (not UTF-8), optionally chunked.
 *
 * Every request asks `Connection: close`, so the answer ends with the socket; interim 1xx
 * answers (`Expect: 100-continue`) are skipped.
 */
import { connect } from "node:net"
import type { Reply } from "./harness.js"

export interface WireRequest {
  readonly method: string
  /** The request target, sent as is. */
  readonly target: string
  /** Header lines in order; `Host` is added first unless `host` is false. */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body?: Uint8Array | undefined
  /** Send the body with `Transfer-Encoding: chunked` (in chunks of this many bytes) rather than `Content-Length`. */
  readonly chunked?: number | undefined
  /** Send no `Host` header. */
  readonly noHost?: boolean | undefined
}

/** The encoded request. Header values are Latin-1: what HTTP/1.1 carries. */
export const encode = (request: WireRequest, host: string): Buffer => {
  const lines = [`${request.method} ${request.target} HTTP/1.1`]
  if (request.noHost !== true) lines.push(`Host: ${host}`)
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`)
  lines.push("Connection: close")
  const body = request.body
  const parts: Array<Buffer> = []
  if (body !== undefined && request.chunked !== undefined) {
    lines.push("Transfer-Encoding: chunked")
    const size = Math.max(1, request.chunked)
    for (let i = 0; i < body.length; i += size) {
      const chunk = body.subarray(i, i + size)
      parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`, "latin1"), Buffer.from(chunk), Buffer.from("\r\n"))
    }
    parts.push(Buffer.from("0\r\n\r\n"))
  } else if (body !== undefined) {
    lines.push(`Content-Length: ${body.length}`)
    parts.push(Buffer.from(body))
  }
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), ...parts])
}

const dechunk = (body: Buffer): Buffer => {
  const out: Array<Buffer> = []
  let at = 0
  for (;;) {
    const eol = body.indexOf("\r\n", at)
    if (eol < 0) throw new Error("truncated chunked body")
    const size = parseInt(body.subarray(at, eol).toString("latin1"), 16)
    if (size === 0) return Buffer.concat(out)
    out.push(body.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
}

/** Parses the one final answer a closed connection carried (after any 1xx). */
export const parse = (bytes: Buffer, method: string): Reply => {
  let at = 0
  for (;;) {
    const end = bytes.indexOf("\r\n\r\n", at)
    if (end < 0) throw new Error(`no complete answer: ${JSON.stringify(bytes.subarray(0, 200).toString("latin1"))}`)
    const [statusLine, ...headerLines] = bytes.subarray(at, end).toString("latin1").split("\r\n")
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? "")?.[1])
    if (!Number.isInteger(status)) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(statusLine)}`)
    if (status >= 100 && status < 200) {
      at = end + 4
      continue
    }
    const headers = new Headers()
    for (const line of headerLines) {
      const colon = line.indexOf(":")
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
    }
    let raw = bytes.subarray(end + 4)
    if (method === "HEAD" || status === 204 || status === 304) raw = Buffer.alloc(0)
    else if (headers.get("transfer-encoding")?.toLowerCase() === "chunked") raw = dechunk(raw)
    else if (headers.has("content-length")) raw = raw.subarray(0, Number(headers.get("content-length")))
    const text = raw.toString("utf8")
    let body: unknown
    try {
      body = text === "" ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    return { status, headers, text, body }
  }
}

/**
 * Sends `request` to `baseUrl` (`http://host:port`) and resolves with the answer; rejects when
 * none comes within `timeoutMs` (a hung request is a finding, not a wait).
 */
export const send = (baseUrl: string, request: WireRequest, timeoutMs = 10_000): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = connect(Number(port), hostname)
    const parts: Array<Buffer> = []
    let settled = false
    const timer = setTimeout(() => {
      settled = true
      socket.destroy()
      reject(new Error(`no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      try {
        resolve(parse(Buffer.concat(parts), request.method))
      } catch (error) {
        reject(error)
      }
    }
    socket.on("data", (chunk: Buffer) => parts.push(chunk))
    socket.on("end", finish)
    // The server may answer and close before the whole request is written (a refused body):
    // the answer read so far is the reply.
    socket.on("error", (error) => {
      if (parts.length > 0) finish()
      else if (!settled) {
        settled = true
        clearTimeout(timer)
        reject(error)
      }
    })
    socket.end(encode(request, `${hostname}:${port}`))
  })
