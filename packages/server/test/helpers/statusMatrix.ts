/**
 * Measures one cell row of the verifier × status-form matrix (docs/decisions/status-lists.md):
 * for a credential of a given form, what each verifier says. Third-party verifiers run through
 * core's offline harness (`packages/core/test/support`), which mutates globals: call these one
 * at a time.
 */
import type { JsonObject } from "@sigil/core/Document"
import * as StatusListReader from "@sigil/core/StatusListReader"
import * as Verifier from "@sigil/core/Verifier"
import { Effect, Layer } from "effect"
import { runCertVerifierJs } from "@sigil/core/testkit/certVerifierJs"
import { offlineLoader, verifyWithDigitalBazaar } from "@sigil/core/testkit/digitalbazaarVc"
import { withFetchStub } from "@sigil/core/testkit/fetchStub"
import { runVerifierCore } from "@sigil/core/testkit/verifierCore"
import type { IssuedForm } from "./statusForms.js"

export interface Verdicts {
  /** Sigil's verifier: its outcome. */
  readonly sigil: Verifier.Outcome
  /** cert-verifier-js 6.35 (Base shim): status, and the failed step if any. */
  readonly cvjs: { readonly status: string; readonly failedStep: string | undefined; readonly message: string }
  /** verifier-core beta.11: accepted?, and its revocation_status step (absent when it does not report one). */
  readonly verifierCore: {
    readonly accepted: boolean
    readonly revocationStatus: boolean | undefined
    readonly errors: ReadonlyArray<string>
  }
  /** @digitalbazaar/vc 7.3 with an accept-all `checkStatus` (no status checker package is installed). */
  readonly digitalBazaar: { readonly verified: boolean; readonly errors: ReadonlyArray<string> }
  /** @digitalbazaar/vc 7.3 called with no `checkStatus` at all, as a caller without a status checker would. */
  readonly digitalBazaarNoChecker: { readonly verified: boolean; readonly errors: ReadonlyArray<string> }
  /** Requests the third-party verifiers made that the offline harness had no answer for. */
  readonly unexpected: ReadonlyArray<string>
}

// Imported by name at run time: these packages' types live in core's test support only.
const load = (name: string): Promise<any> => import(name)

const messagesOf = (error: unknown): Array<string> => {
  if (typeof error !== "object" || error === null) return error === undefined ? [] : [String(error)]
  const e = error as { message?: unknown; errors?: unknown }
  return [
    ...(typeof e.message === "string" ? [e.message] : []),
    ...(Array.isArray(e.errors) ? e.errors.flatMap(messagesOf) : [])
  ]
}

/** `@digitalbazaar/vc` `verifyCredential` exactly as a caller without a status checker calls it. */
const digitalBazaarWithoutChecker = async (credential: JsonObject, documents: Record<string, unknown>) => {
  const [vc, { DataIntegrityProof }, { cryptosuite }] = await Promise.all([
    load("@digitalbazaar/vc"),
    load("@digitalbazaar/data-integrity"),
    load("@digitalbazaar/eddsa-rdfc-2022-cryptosuite")
  ])
  const loader = offlineLoader(documents)
  const run = await withFetchStub({}, async () => {
    try {
      return await vc.verifyCredential({
        credential: structuredClone(credential),
        suite: new DataIntegrityProof({ cryptosuite }),
        documentLoader: loader.documentLoader
      })
    } catch (error) {
      return { verified: false, error }
    }
  })
  const raw = run.value as { verified: boolean; error?: unknown; results?: ReadonlyArray<{ error?: unknown }> }
  return {
    verified: raw.verified === true,
    errors: [...new Set([...messagesOf(raw.error), ...(raw.results ?? []).flatMap((r) => messagesOf(r.error))])],
    unexpected: [...loader.unexpected, ...run.unexpected]
  }
}

const cvjsRun = (issued: IssuedForm, credential: JsonObject, lists: Readonly<Record<string, JsonObject>>) =>
  runCertVerifierJs(credential, {
    baseShim: true,
    didDocuments: { [issued.tenant.urls.did]: issued.didDocument },
    routes: { [issued.tenant.urls.profile]: issued.profile, ...lists },
    transactions: {
      [issued.txHash]: {
        remoteHash: issued.merkleRoot.slice(2),
        issuingAddress: issued.tenant.address,
        time: issued.anchoredAt.toISOString()
      }
    }
  })

/**
 * Fail-open or fail-closed: what Sigil's verifier and cert-verifier-js say when the status or
 * revocation list cannot be fetched (404).
 */
export const measureUnreachable = async (issued: IssuedForm, credential: JsonObject) => {
  const noLists = Layer.merge(issued.world.layer, StatusListReader.layerMemory())
  const sigil = await Effect.runPromise(Verifier.verifyCredential(credential).pipe(Effect.provide(noLists)))
  const cvjs = await cvjsRun(issued, credential, {})
  return { sigil: sigil.outcome, cvjs: { status: cvjs.status, failedStep: cvjs.failedStep, unexpected: cvjs.unexpected } }
}

export const measure = async (issued: IssuedForm, credential: JsonObject): Promise<Verdicts> => {
  const did = issued.tenant.urls.did
  const sigil = await Effect.runPromise(Verifier.verifyCredential(credential).pipe(Effect.provide(issued.world.layer)))
  const cvjs = await cvjsRun(issued, credential, issued.lists)
  const core = await runVerifierCore(credential, { didDocuments: { [did]: issued.didDocument }, routes: { ...issued.lists } })
  const revocation = core.log.find((s) => s.id === "revocation_status")
  const db = await verifyWithDigitalBazaar(credential, { documents: { [did]: issued.didDocument } })
  const bare = await digitalBazaarWithoutChecker(credential, { [did]: issued.didDocument })
  return {
    sigil: sigil.outcome,
    cvjs: { status: cvjs.status, failedStep: cvjs.failedStep, message: cvjs.message },
    verifierCore: {
      accepted: core.accepted,
      revocationStatus: revocation === undefined ? undefined : revocation.valid === true,
      errors: [...core.errors.map((e) => e.message), ...core.log.filter((s) => s.error !== undefined).map((s) => `${s.id}: ${s.error!.message}`)]
    },
    digitalBazaar: { verified: db.verified, errors: db.errors },
    digitalBazaarNoChecker: { verified: bare.verified, errors: bare.errors },
    unexpected: [...cvjs.unexpected, ...core.unexpected, ...db.unexpected, ...bare.unexpected]
  }
}
