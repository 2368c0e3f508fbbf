/**
 * The CSV parser (RFC 4180) and the issue plan: mapping, recipient ids, validation with line
 * numbers, chunks and their idempotency keys. Nothing here talks to a server.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import * as Csv from "../src/Csv.js"
import * as IssueCsv from "../src/IssueCsv.js"

const bytes = (text: string) => new TextEncoder().encode(text)
const achievement = bytes(JSON.stringify({ name: "Certificate", description: "Completed the programme." }))

describe("Csv", () => {
  it("parses quotes, doubled quotes, commas and line breaks inside quotes, CRLF and LF, a BOM", () => {
    const text = '\uFEFFname,note\r\n"Turing, Alan","said ""hi"""\r\n"Ada\r\nLovelace",x\nGrace,\n\n"",last\n'
    expect(Csv.parse(text)).toEqual([
      { line: 1, fields: ["name", "note"] },
      { line: 2, fields: ["Turing, Alan", 'said "hi"'] },
      { line: 3, fields: ["Ada\r\nLovelace", "x"] },
      { line: 5, fields: ["Grace", ""] },
      { line: 7, fields: ["", "last"] }
    ])
  })

  it("a last record without a final line break", () => {
    expect(Csv.parse("a,b\n1,2")).toEqual([{ line: 1, fields: ["a", "b"] }, { line: 2, fields: ["1", "2"] }])
  })

  it("refuses malformed quoting with the line", () => {
    expect(() => Csv.parse('a\n"open\n')).toThrow(/line 2: a quoted field is not closed/)
    expect(() => Csv.parse('a\nab"c\n')).toThrow(/line 2/)
    expect(() => Csv.parse('a\n"x"y\n')).toThrow(/line 2/)
  })

  it("formats what it parses back", () => {
    const rows = [["line", "name"], ["2", 'Turing, "Alan"'], ["3", "multi\nline"], ["4", " padded "]]
    expect(Csv.parse(Csv.format(rows)).map((r) => r.fields)).toEqual(rows)
    expect(Csv.format([["a", "b"]])).toBe("a,b\r\n")
  })
})

describe("IssueCsv.plan", () => {
  it("maps default headers, derives stable v4-shaped recipient ids, and normalizes dates", () => {
    const csv = bytes("Full Name,E-mail,Issued\nAda Lovelace,ada@example.org,2026-06-30\nAlan Turing,,2026-06-30T09:00:00Z\n")
    const plan = Either.getOrThrow(IssueCsv.plan({ csv, achievement }))
    expect(plan.columns).toEqual({ name: "Full Name", email: "E-mail", issued: "Issued" })
    expect(plan.rows.map((r) => r.line)).toEqual([2, 3])
    const [ada, alan] = plan.rows
    expect(ada!.credential).toMatchObject({
      recipient: { name: "Ada Lovelace", email: "ada@example.org" },
      issuanceDate: "2026-06-30T00:00:00Z"
    })
    expect(alan!.credential.recipient).not.toHaveProperty("email")
    expect(ada!.recipientId).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(ada!.recipientId).not.toBe(alan!.recipientId)
    // Stable: the same file gives the same ids; another file other ids.
    const again = Either.getOrThrow(IssueCsv.plan({ csv, achievement }))
    expect(again.rows.map((r) => r.recipientId)).toEqual(plan.rows.map((r) => r.recipientId))
    const other = Either.getOrThrow(IssueCsv.plan({ csv: bytes(new TextDecoder().decode(csv) + "Grace Hopper,,2026-06-30\n"), achievement }))
    expect(other.rows[0]!.recipientId).not.toBe(ada!.recipientId)
  })

  it("--map overrides headers; an id column is used (bare or urn, any case)", () => {
    const csv = bytes("Student UUID,Graduate,When\n7F1C6A9E-3B0D-4E7F-8A2C-5D9E1B4C3A21,Ada,2026-06-30\nurn:uuid:5ee6dbe3-c715-4277-869c-98e8ea25e8d1,Alan,2026-06-30\n")
    const map = Either.getOrThrow(IssueCsv.parseMap(["id=Student UUID,name=Graduate", "issued=When"]))
    const plan = Either.getOrThrow(IssueCsv.plan({ csv, achievement, map }))
    expect(plan.rows.map((r) => r.recipientId)).toEqual([
      "urn:uuid:7f1c6a9e-3b0d-4e7f-8a2c-5d9e1b4c3a21",
      "urn:uuid:5ee6dbe3-c715-4277-869c-98e8ea25e8d1"
    ])
    expect(Either.isLeft(IssueCsv.parseMap(["colour=Red"]))).toBe(true)
  })

  it("validates every row and reports each bad one with its line and column", () => {
    const csv = bytes(
      'name,id,issued,email\nAda,7f1c6a9e-3b0d-4e7f-8a2c-5d9e1b4c3a21,2026-06-30,ada@example.org\n' +
        '"Multi\nLine",not-a-uuid,2026-06-30,\n' +
        ",5ee6dbe3-c715-4277-869c-98e8ea25e8d1,2026-06-30,\n" +
        "Bob,0b9d3c52-7f3a-4c1e-9d2b-6a8e4f1c2d3e,2026-02-30,\n" +
        "Eve,1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f,2026-06-30,not-an-email\n" +
        "Short,row\n"
    )
    const problems = Either.getLeft(IssueCsv.plan({ csv, achievement })).pipe((o) => o._tag === "Some" ? o.value : [])
    expect(problems.map((p) => p.line)).toEqual([3, 5, 6, 7, 8])
    expect(problems[0]!.message).toMatch(/column "id" \(recipient\.id\)/)
    expect(problems[1]!.message).toMatch(/column "name" \(recipient\.name\)/)
    expect(problems[2]!.message).toMatch(/column "issued" \(issuanceDate\)/)
    expect(problems[3]!.message).toMatch(/column "email" \(recipient\.email\)/)
    expect(problems[4]!.message).toMatch(/2 fields; the header has 4/)
  })

  it("refuses a bad achievement, a missing name column, a missing date", () => {
    const csv = bytes("name\nAda\n")
    const left = (input: IssueCsv.PlanInput) => Either.getLeft(IssueCsv.plan(input)).pipe((o) => (o._tag === "Some" ? o.value : []))
    expect(left({ csv, achievement: bytes("{nope"), issuedAt: "2026-06-30" })[0]!.message).toMatch(/not valid JSON/)
    expect(left({ csv, achievement: bytes('{"name":"x"}'), issuedAt: "2026-06-30" })[0]!.message).toMatch(/achievement\.description/)
    expect(left({ csv: bytes("who\nAda\n"), achievement, issuedAt: "2026-06-30" })[0]!.message).toMatch(/no recipient name column/)
    expect(left({ csv, achievement })[0]!.message).toMatch(/--issued-at/)
    expect(Either.isRight(IssueCsv.plan({ csv, achievement, issuedAt: "2026-06-30T00:00:00Z" }))).toBe(true)
  })

  it("chunks of 500 with keys derived from the file, the achievement and the chunk index", () => {
    const rows = Array.from({ length: 1200 }, (_, i) => `Graduate ${i},2026-06-30`).join("\n")
    const csv = bytes(`name,issued\n${rows}\n`)
    const plan = Either.getOrThrow(IssueCsv.plan({ csv, achievement }))
    expect(plan.chunks.map((c) => c.rows.length)).toEqual([500, 500, 200])
    expect(plan.chunks.map((c) => [c.rows[0]!.line, c.rows.at(-1)!.line])).toEqual([[2, 501], [502, 1001], [1002, 1201]])
    const keys = plan.chunks.map((c) => c.idempotencyKey)
    expect(new Set(keys).size).toBe(3)
    expect(keys[0]).toBe(IssueCsv.chunkKey(csv, achievement, 0))
    expect(keys[0]!.length).toBeLessThanOrEqual(255)
    // Same file, same keys; another achievement, other keys.
    expect(Either.getOrThrow(IssueCsv.plan({ csv, achievement })).chunks.map((c) => c.idempotencyKey)).toEqual(keys)
    const other = bytes(JSON.stringify({ name: "Other", description: "Other." }))
    expect(Either.getOrThrow(IssueCsv.plan({ csv, achievement: other })).chunks[0]!.idempotencyKey).not.toBe(keys[0])
  })
})
