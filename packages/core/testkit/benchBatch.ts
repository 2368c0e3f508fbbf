/**
 * The batch every signing benchmark signs: 500 credentials of about 2 KB, issued by one tenant.
 */
import type * as Document from "../src/Document.js"
import type * as Issuance from "../src/Issuance.js"

export const BATCH = 500

export const settings: Issuance.IssuerSettings = {
  tenantId: "tnt_01JBENCH000000000000000000",
  issuer: { did: "did:web:sigil.example:tenants:01jbench000000000000000000", name: "Benchmark University", url: "https://bench.example" },
  recipientNameMode: "hashed",
  eddsaMethod: "did:web:sigil.example:tenants:01jbench000000000000000000#key-ed25519-1",
  merkleMethod: "did:web:sigil.example:tenants:01jbench000000000000000000#key-1"
}

export const content = (i: number): Document.Content => ({
  recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: `Graduate number ${i}` },
  achievement: {
    name: "Bachelor of Science in Computer Science",
    description: "Awarded for completing the three-year programme in computer science with honours.",
    criteria: { narrative: "Completed 180 ECTS credits including a final-year project." },
    alignment: [
      { targetFramework: "ESCO", targetCode: "S5.6.1", targetName: "manage data", targetUrl: "http://data.europa.eu/esco/skill/abc" },
      { targetFramework: "ISCED-F", targetCode: "0613", targetName: "Software and applications development" }
    ]
  },
  issuanceDate: "2025-06-30T00:00:00Z",
  evidence: [{ id: "https://bench.example/evidence/1", narrative: "Final project report." }]
})

export const credentials = (n: number = BATCH): ReadonlyArray<Document.Content> => Array.from({ length: n }, (_, i) => content(i))

export const anchor = { chainId: 31337, txHash: `0x${"ab".repeat(32)}`, created: new Date("2025-06-30T10:00:30Z") }
export const signedAt = new Date("2025-06-30T10:00:00Z")
