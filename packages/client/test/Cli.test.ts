/**
 * The `sigil` CLI and the client against the real server (`npm start`'s main, on free ports
 * and a temporary data directory): a 1,200-row CSV issues 3 batches; rerunning issues nothing;
 * a bad row fails before any request, naming its line; `sigil verify` exits 0 on a good file
 * and 1 on a tampered one; a POST whose answer is lost and retried creates one batch.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as ProcessHelpers from "@sigil/server/testkit/process"
import * as Csv from "../src/Csv.js"
import { createClient } from "../src/PromiseClient.js"
import { type Ran, sigil, workDir } from "./helpers/cli.js"

let server: ProcessHelpers.Running
let key: string
let dir: string
let env: Record<string, string>

const api = (method: string, p: string, body?: unknown) => server.api(method, p, key, body)

const allBatchIds = async (): Promise<Array<string>> => {
  const ids: Array<string> = []
  let cursor: string | undefined
  for (;;) {
    const page = await api("GET", `/v1/batches?limit=100${cursor === undefined ? "" : `&cursor=${cursor}`}`)
    ids.push(...page.body.data.map((b: { id: string }) => b.id))
    if (!page.body.has_more) return ids
    cursor = page.body.next_cursor
  }
}

const explain = (ran: Ran) => `exit ${ran.code}\nstdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`

beforeAll(async () => {
  server = await ProcessHelpers.start({ dataDir: ProcessHelpers.newDataDir() })
  key = (await ProcessHelpers.createTenant(server, { name: "CLI University", plan: "industry" })).key
  dir = workDir()
  env = { SIGIL_API_KEY: key, SIGIL_BASE_URL: server.baseUrl }
  writeFileSync(
    path.join(dir, "achievement.json"),
    JSON.stringify({
      name: "Bachelor of Analytical Engines",
      description: "Completed the three-year programme.",
      alignment: [{ targetFramework: "ISCED-F", targetCode: "0613", targetName: "Software and applications development" }]
    })
  )
  const rows = Array.from({ length: 1200 }, (_, i) =>
    `${i % 7 === 0 ? `"Graduate, No. ${i}"` : `Graduate ${i}`},graduate${i}@example.org,${crypto.randomUUID()},2026-06-30`)
  writeFileSync(path.join(dir, "graduates.csv"), `Full Name,E-mail,Student UUID,Date\r\n${rows.join("\r\n")}\r\n`)
}, 180_000)

afterAll(async () => {
  if (server !== undefined) await ProcessHelpers.stop(server)
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

const issueArgs = ["issue", "--csv", "graduates.csv", "--achievement", "achievement.json", "--map", "id=Student UUID", "--out", "results.csv"]

describe("sigil issue", () => {
  it("a 1,200-row CSV issues 3 anchored batches and writes the results CSV", async () => {
    const before = await allBatchIds()
    const ran = await sigil(issueArgs, { cwd: dir, env })
    expect(ran.code, explain(ran)).toBe(0)
    expect(ran.stdout).toMatch(/Issued 1200 credentials from graduates\.csv in 3 new batches/)
    const created = (await allBatchIds()).filter((id) => !before.includes(id))
    expect(created).toHaveLength(3)
    const batches = await Promise.all(created.map(async (id) => (await api("GET", `/v1/batches/${id}`)).body))
    expect(batches.map((b) => b.status)).toEqual(["anchored", "anchored", "anchored"])
    expect(batches.map((b) => b.credentials_count).sort()).toEqual([200, 500, 500])

    const results = Csv.parse(readFileSync(path.join(dir, "results.csv"), "utf8"))
    expect(results[0]!.fields).toEqual(["line", "recipient_id", "credential_id", "verify_url", "batch_id", "status"])
    expect(results).toHaveLength(1201)
    const source = Csv.parse(readFileSync(path.join(dir, "graduates.csv"), "utf8"))
    for (const [i, row] of results.slice(1).entries()) {
      const [line, recipient, credential, verifyUrl, batchId, status] = row.fields
      expect(line).toBe(String(i + 2))
      expect(recipient).toBe(`urn:uuid:${source[i + 1]!.fields[2]}`)
      expect(credential).toMatch(/^crd_[A-Z0-9]{26}$/)
      expect(verifyUrl).toBe(`${server.baseUrl}/c/${credential}`)
      expect(created).toContain(batchId)
      expect(status).toBe("anchored")
    }
    // The results match the server's own record of each batch.
    const anchored = new Map(batches.flatMap((b) => b.credentials.map((c: { id: string; recipient_id: string }) => [c.id, c.recipient_id])))
    for (const row of results.slice(1)) expect(anchored.get(row.fields[2]!)).toBe(row.fields[1])

    // batches list / get show them.
    const list = await sigil(["batches", "list", "--limit", "3"], { cwd: dir, env })
    expect(list.code, explain(list)).toBe(0)
    for (const id of created) expect(list.stdout).toContain(id)
    const get = await sigil(["batches", "get", created[0]!], { cwd: dir, env })
    expect(get.code, explain(get)).toBe(0)
    expect(get.stdout).toMatch(/Status\s+anchored/)
    expect(get.stdout).toMatch(/Transaction\s+0x[0-9a-f]{64} on devnet/)
  })

  it("rerunning the same command issues nothing new (state file), nor without the state file (server idempotency)", async () => {
    const before = await allBatchIds()
    const rerun = await sigil(issueArgs, { cwd: dir, env })
    expect(rerun.code, explain(rerun)).toBe(0)
    expect(rerun.stdout).toMatch(/Nothing new was issued/)
    expect(await allBatchIds()).toEqual(before)

    rmSync(path.join(dir, "graduates.csv.sigil.json"))
    const again = await sigil(issueArgs, { cwd: dir, env })
    expect(again.code, explain(again)).toBe(0)
    expect(again.stdout).toMatch(/Nothing new was issued/)
    expect(again.stdout.match(/\(submitted before\)/g)).toHaveLength(3)
    expect(await allBatchIds()).toEqual(before)
    // Same results as the first run.
    expect(Csv.parse(readFileSync(path.join(dir, "results.csv"), "utf8"))).toHaveLength(1201)

    // A rerun whose flags change the bodies is refused, not issued twice: by the state file,
    // and without it by the server (409 idempotency_key_reused).
    for (const withState of [true, false]) {
      if (!withState) rmSync(path.join(dir, "graduates.csv.sigil.json"))
      const changed = await sigil([...issueArgs, "--expires-at", "2036-06-30"], { cwd: dir, env })
      expect(changed.code, explain(changed)).toBe(1)
      expect(changed.stderr).toMatch(/batch 1 \(lines 2–501\) was already submitted with a different body/)
      expect(await allBatchIds()).toEqual(before)
    }
  })

  it("a CSV with a bad row fails before any request, with the line number", async () => {
    // A server that records every request: none may arrive.
    const seen: Array<string> = []
    const counting: Server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`)
      response.writeHead(500).end()
    })
    await new Promise<void>((resolve) => counting.listen(0, "127.0.0.1", resolve))
    try {
      const rows = Array.from({ length: 700 }, (_, i) =>
        i === 612 ? "Bad Row,bad@example.org,not-a-uuid,2026-06-30" : `Graduate ${i},g${i}@example.org,${crypto.randomUUID()},2026-06-30`)
      writeFileSync(path.join(dir, "bad.csv"), `Full Name,E-mail,Student UUID,Date\n${rows.join("\n")}\n`)
      const ran = await sigil(["issue", "--csv", "bad.csv", "--achievement", "achievement.json", "--map", "id=Student UUID"], {
        cwd: dir,
        env: { ...env, SIGIL_BASE_URL: `http://127.0.0.1:${(counting.address() as AddressInfo).port}` }
      })
      expect(ran.code, explain(ran)).toBe(1)
      expect(ran.stderr).toContain("bad.csv:614: column \"Student UUID\" (recipient.id)")
      expect(ran.stderr).toMatch(/1 problem; nothing was sent/)
      expect(seen).toEqual([])
    } finally {
      await new Promise<void>((resolve) => counting.close(() => resolve()))
    }
  })
})

describe("sigil verify", () => {
  it("exits 0 on a good credential, 1 on a tampered one, step by step", async () => {
    const results = Csv.parse(readFileSync(path.join(dir, "results.csv"), "utf8"))
    const credentialId = results[1]!.fields[2]!
    const document = await (await fetch(`${server.baseUrl}/c/${credentialId}.json`)).json() as Record<string, any>
    writeFileSync(path.join(dir, "good.json"), JSON.stringify(document, null, 2))
    const good = await sigil(["verify", "good.json"], { cwd: dir, env: { SIGIL_BASE_URL: server.baseUrl, SIGIL_API_KEY: "" } })
    expect(good.code, explain(good)).toBe(0)
    for (const step of ["format", "documentHash", "merklePath", "anchor", "issuerKey", "eddsaProof", "status", "expiry"]) {
      expect(good.stdout).toMatch(new RegExp(`✔ ${step}`))
    }
    expect(good.stdout).toMatch(/Result: VERIFIED/)

    const tampered = structuredClone(document)
    tampered.credentialSubject.achievement.name = "Doctor of Analytical Engines"
    writeFileSync(path.join(dir, "tampered.json"), JSON.stringify(tampered, null, 2))
    const bad = await sigil(["verify", "tampered.json"], { cwd: dir, env: { SIGIL_BASE_URL: server.baseUrl } })
    expect(bad.code, explain(bad)).toBe(1)
    expect(bad.stdout).toMatch(/✘ documentHash/)
    expect(bad.stdout).toMatch(/Result: FAILED/)

    // The API's Credential resource verifies too (its signed_credential).
    writeFileSync(path.join(dir, "api.json"), JSON.stringify((await api("GET", `/v1/credentials/${credentialId}`)).body))
    const fromApi = await sigil(["verify", "api.json", "--json"], { cwd: dir, env: { SIGIL_BASE_URL: server.baseUrl } })
    expect(fromApi.code, explain(fromApi)).toBe(0)
    expect(JSON.parse(fromApi.stdout)).toMatchObject({ outcome: "verified", verified: true })
  })
})

describe("the client against the real server", () => {
  it("a POST whose answer is lost is retried with its key, and creates one batch", async () => {
    // A proxy that forwards everything, but answers the first POST /v1/batches with a 503
    // after the server has handled it (the answer lost on the way back).
    let dropped: { id: string } | undefined
    const keys: Array<string | undefined> = []
    const proxy = createServer(async (request, response) => {
      let body = ""
      for await (const chunk of request) body += chunk
      const forwarded = await fetch(`${server.baseUrl}${request.url}`, {
        method: request.method!,
        headers: Object.fromEntries(
          Object.entries(request.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k)) as Array<[string, string]>
        ),
        ...(body === "" ? {} : { body })
      })
      const text = await forwarded.text()
      if (request.method === "POST" && request.url === "/v1/batches") {
        keys.push(request.headers["idempotency-key"] as string | undefined)
        if (dropped === undefined) {
          dropped = JSON.parse(text)
          response.writeHead(503, { "content-type": "text/plain" }).end("upstream timeout")
          return
        }
      }
      const headers: Record<string, string> = {}
      forwarded.headers.forEach((value, name) => {
        if (!["content-length", "transfer-encoding", "content-encoding", "connection"].includes(name)) headers[name] = value
      })
      response.writeHead(forwarded.status, headers).end(text)
    })
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
    try {
      const before = await allBatchIds()
      const client = createClient({
        baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        apiKey: key,
        retry: { base: 50, cap: 200 }
      })
      const created = await client.batches.create(ProcessHelpers.batchOf(3))
      expect(keys).toHaveLength(2)
      expect(keys[1]).toBe(keys[0])
      expect(created.replayed).toBe(true)
      expect(created.batch.id).toBe(dropped!.id)
      const after = await allBatchIds()
      expect(after.filter((id) => !before.includes(id))).toEqual([created.batch.id])
      const anchored = await client.batches.waitFor(created.batch.id, { intervalMs: 100 })
      expect(anchored.credentials).toHaveLength(3)
    } finally {
      proxy.closeAllConnections()
      await new Promise<void>((resolve) => proxy.close(() => resolve()))
    }
  })
})
