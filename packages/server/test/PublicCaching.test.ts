/**
 * HTTP caching of the public documents, on a real server: DID documents, issuer profiles,
 * status lists and a credential's public JSON carry a strong ETag and a freshness
 * (`Cache-Control: public, max-age=…`), answer a matching `If-None-Match` with an empty 304, and
 * change their ETag when they change (a revocation changes the status list). The status list's
 * freshness comes from `SIGIL_STATUS_LIST_MAX_AGE`. The server keeps what it answered
 * (`PublicCache`): a page or document it kept shows a revocation, an erasure or new branding on
 * the very next request.
 */
import * as StatusList from "@sigil/core/StatusList"
import { Either } from "effect"
import { rmSync } from "node:fs"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { batchOf, createTenant, eventually, newDataDir, type Running, start, stop } from "../testkit/process.js"

let server: Running
let tenant: { readonly id: string; readonly did: string; readonly key: string }
let credentials: ReadonlyArray<{ readonly id: string; readonly signed_credential: any }>

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${path}`, { headers })

beforeAll(async () => {
  server = await start({ dataDir: newDataDir(), env: { SIGIL_STATUS_LIST_MAX_AGE: "2m" } })
  tenant = await createTenant(server, { name: "Caching University" })
  const created = await server.api("POST", "/v1/batches", tenant.key, batchOf(4))
  assert.strictEqual(created.status, 202, JSON.stringify(created.body))
  await eventually(async () => {
    const batch = await server.api("GET", `/v1/batches/${created.body.id}`, tenant.key)
    return batch.body.status === "anchored" ? true : undefined
  }, 90_000, "the batch to be anchored")
  const batch = await server.api("GET", `/v1/batches/${created.body.id}`, tenant.key)
  credentials = await Promise.all(
    batch.body.credentials.map(async (c: { id: string }) => (await server.api("GET", `/v1/credentials/${c.id}`, tenant.key)).body)
  )
}, 180_000)

afterAll(async () => {
  if (server !== undefined) {
    await stop(server)
    rmSync(server.dataDir, { recursive: true, force: true })
  }
})

/** Checks the 200, then every conditional form: 304 with no body and the same headers. */
const cachedDocument = async (path: string, maxAge: number) => {
  const first = await get(path)
  assert.strictEqual(first.status, 200, path)
  const etag = first.headers.get("etag")!
  assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/, path)
  assert.strictEqual(first.headers.get("cache-control"), `public, max-age=${maxAge}, must-revalidate`, path)
  assert.strictEqual(first.headers.get("access-control-allow-origin"), "*", path)
  assert.strictEqual(first.headers.get("x-content-type-options"), "nosniff", path)
  const body = await first.text()
  assert.strictEqual((await get(path)).headers.get("etag"), etag, `${path}: the same bytes, the same tag`)
  for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const again = await get(path, { "if-none-match": condition })
    assert.strictEqual(again.status, 304, `${path} with If-None-Match: ${condition}`)
    assert.strictEqual(await again.text(), "")
    assert.strictEqual(again.headers.get("etag"), etag)
    assert.strictEqual(again.headers.get("cache-control"), first.headers.get("cache-control"))
  }
  assert.strictEqual((await get(path, { "if-none-match": "\"stale\"" })).status, 200)
  return { etag, body }
}

describe("public documents: ETags, 304s and freshness", () => {
  it("DID document and issuer profile", async () => {
    const suffix = tenant.did.split(":").at(-1)!
    const did = await cachedDocument(`/tenants/${suffix}/did.json`, 300)
    assert.strictEqual(JSON.parse(did.body).id, tenant.did)
    await cachedDocument(`/tenants/${suffix}/profile.json`, 300)
    assert.strictEqual((await get(`/tenants/${"0".repeat(26)}/did.json`)).status, 404)
  })

  it("a credential's public JSON", async () => {
    const [a, b] = credentials
    const first = await cachedDocument(`/c/${a!.id}.json`, 60)
    const second = await cachedDocument(`/c/${b!.id}.json`, 60)
    assert.notStrictEqual(first.etag, second.etag)
  })

  it("a status list: its freshness is SIGIL_STATUS_LIST_MAX_AGE, and a revocation changes it at once", async () => {
    const [revoked, kept] = credentials
    const listUrl = new URL(revoked!.signed_credential.credentialStatus.statusListCredential as string)
    const index = Number(revoked!.signed_credential.credentialStatus.statusListIndex)
    const before = await cachedDocument(listUrl.pathname, 120)
    const bitsOf = (body: string) =>
      Either.getOrThrow(StatusList.decode(JSON.parse(body).credentialSubject.encodedList as string))
    assert.isFalse(StatusList.isSet(bitsOf(before.body), index))

    const answer = await server.api("POST", `/v1/credentials/${revoked!.id}/revoke`, tenant.key, {
      reason: "Issued in error",
      reason_code: "issuer_error"
    })
    assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
    // A verifier holding the old version asks again and gets the new one, not a 304.
    const changed = await get(listUrl.pathname, { "if-none-match": before.etag })
    assert.strictEqual(changed.status, 200)
    const after = await cachedDocument(listUrl.pathname, 120)
    assert.notStrictEqual(after.etag, before.etag)
    assert.isTrue(StatusList.isSet(bitsOf(after.body), index))
    assert.isFalse(StatusList.isSet(bitsOf(after.body), Number(kept!.signed_credential.credentialStatus.statusListIndex)))
  })
})

describe("the public surface kept in memory (PublicCache), never stale", () => {
  const page = async (id: string) => {
    const response = await get(`/c/${id}`)
    assert.strictEqual(response.status, 200)
    return { timing: response.headers.get("server-timing"), html: await response.text() }
  }

  it("a page is verified once and kept; a revocation, an erasure and new branding show on the next request", async () => {
    const [, , erased, revoked] = credentials
    // Kept: the second answer is the first one (the same verification's timing).
    const first = await page(revoked!.id)
    assert.include(first.html, "Verified")
    assert.strictEqual((await page(revoked!.id)).timing, first.timing)

    const revocation = await server.api("POST", `/v1/credentials/${revoked!.id}/revoke`, tenant.key, {
      reason: "Issued in error",
      reason_code: "issuer_error"
    })
    assert.strictEqual(revocation.status, 200, JSON.stringify(revocation.body))
    const afterRevocation = await page(revoked!.id)
    assert.include(afterRevocation.html, "Revoked by the issuer")
    assert.notStrictEqual(afterRevocation.timing, first.timing)

    assert.include((await page(erased!.id)).html, "Graduate")
    const erasure = await server.api("POST", `/v1/credentials/${erased!.id}/erase`, tenant.key, {
      requester: "recipient",
      verified_at: new Date().toISOString()
    })
    assert.strictEqual(erasure.status, 200, JSON.stringify(erasure.body))
    assert.include((await page(erased!.id)).html, "Recipient data erased")

    const accent = "#1B5E20"
    const branded = await server.api("PATCH", "/v1/tenants/me", tenant.key, { verify_page_branding: { accent_color: accent } })
    assert.strictEqual(branded.status, 200, JSON.stringify(branded.body))
    assert.include((await page(revoked!.id)).html.toLowerCase(), accent.toLowerCase())
  })

  it("an unknown id's 404 is the same answer each time, and changes nothing", async () => {
    const unknown = `crd_${"0".repeat(26)}`
    for (let i = 0; i < 3; i++) {
      assert.strictEqual((await get(`/c/${unknown}`)).status, 404)
      assert.strictEqual((await get(`/c/${unknown}.json`)).status, 404)
    }
  })
})
