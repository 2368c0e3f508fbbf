/**
 * Runs the Blockcerts reference verifier, `@blockcerts/cert-verifier-js` 6.35.0, fully offline.
 *
 * - HTTP: `globalThis.fetch` is stubbed (fetchStub.ts) to serve only the given routes and Sigil's
 *   contexts; everything else is recorded as unexpected and answered 404.
 * - DIDs: cvjs resolves every non-`did:key` DID by `GET <didResolverUrl>/<did>` expecting
 *   `{didDocument}` (research/blockcerts.md §3.5). We point the (module-global) resolver URL at
 *   `https://resolver.invalid/1.0/identifiers`, serve the given DID documents there, and put the
 *   previous URL back afterwards.
 * - Chain: a custom explorer (`apiType: 'rpc'`, `priority: 0`) answers from the given transaction
 *   map. RPC explorers make no HTTP call of their own, and priority 0 puts them before the built-in
 *   Etherscan/Blockcypher/Blockstream explorers, which are only reached (and then recorded as
 *   unexpected fetches) when the map has no answer.
 * - Base: with `baseShim: true` the run happens inside withBaseShim (baseShim.ts).
 *
 * cvjs logs a lot to the console; the run captures it in `logs` instead.
 */
import { withBaseShim } from "./baseShim.js"
import { cvjs, cvjsCore, type ExplorerApi, type ExplorerTxData, type StepUpdate } from "./cvjsModule.js"
import { type Routes, withFetchStub } from "./fetchStub.js"

export const DID_RESOLVER_URL = "https://resolver.invalid/1.0/identifiers"

/** What the anchoring transaction looks like on chain, as a cvjs explorer reports it. */
export interface CvjsTransaction {
  /** The transaction's input data without `0x`: must equal the proof's merkleRoot. */
  readonly remoteHash: string
  /** The transaction's sender. */
  readonly issuingAddress: string
  /** The block time (ISO 8601). */
  readonly time: string
  readonly revokedAddresses?: ReadonlyArray<string>
}

export interface CvjsRunOptions {
  /** URL → JSON served over the stubbed fetch: issuer profiles, revocation/status lists, extra contexts. */
  readonly routes?: Routes
  /** DID (as written in the credential; a `#fragment` is ignored) → DID document, served by the resolver. */
  readonly didDocuments?: Readonly<Record<string, unknown>>
  /** Transaction id as written in the anchor (`0x…` for EVM chains) → what the explorer returns. */
  readonly transactions?: Readonly<Record<string, CvjsTransaction>>
  /** Install the test-only Base shim (baseShim.ts) for this run. */
  readonly baseShim?: boolean
}

export interface CvjsStep {
  readonly code: string
  readonly status: "success" | "failure"
  readonly errorMessage?: string
  readonly parentStep?: string
}

export interface CvjsResult {
  /** `error` = cvjs threw (in init() or verify()) instead of returning a status. */
  readonly status: "success" | "failure" | "error"
  /**
   * The failure message, or on success the description cvjs shows ("All the signatures of this
   * certificate have successfully verified.", or the mocknet warning).
   */
  readonly message: string
  /** On success, the short label ("Verified", "This Mocknet credential passed all checks"). */
  readonly label: string | undefined
  /** Every sub-step cvjs reported as finished, in order. */
  readonly steps: ReadonlyArray<CvjsStep>
  /** The code of the first step that failed, if any. */
  readonly failedStep: string | undefined
  /** Every URL requested over the stubbed fetch. */
  readonly fetched: ReadonlyArray<string>
  /** Requests that matched no route or context (answered 404). Assert this is empty. */
  readonly unexpected: ReadonlyArray<string>
  /** Transaction ids the custom explorer was asked for. */
  readonly explorerLookups: ReadonlyArray<string>
  /** The cvjs chain code of each proof's anchor (e.g. `ethsepolia`, `ethbasesepolia`, `mocknet`). */
  readonly chains: ReadonlyArray<string | undefined>
  /** What cvjs wrote to the console during the run. */
  readonly logs: ReadonlyArray<string>
}

const normalizeTxId = (id: string): string => id.toLowerCase().replace(/^0x/, "")

const findTransaction = (
  transactions: Readonly<Record<string, CvjsTransaction>>,
  transactionId: string
): CvjsTransaction | undefined => {
  const wanted = normalizeTxId(transactionId)
  const key = Object.keys(transactions).find((k) => normalizeTxId(k) === wanted)
  return key === undefined ? undefined : transactions[key]
}

const captureConsole = <A>(logs: Array<string>, run: () => Promise<A>): Promise<A> => {
  const methods = ["log", "info", "warn", "error", "debug"] as const
  const saved = methods.map((m) => [m, console[m]] as const)
  for (const m of methods) {
    console[m] = (...args: Array<unknown>) => {
      logs.push(`[${m}] ${args.map((a) => (a instanceof Error ? a.message : typeof a === "string" ? a : safeJson(a))).join(" ")}`)
    }
  }
  return run().finally(() => {
    for (const [m, f] of saved) console[m] = f
  })
}

const safeJson = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/**
 * Verifies `credential` with cert-verifier-js, offline. Never throws for a verification problem:
 * a throw inside cvjs becomes `status: "error"`.
 */
export const runCertVerifierJs = async (credential: unknown, options: CvjsRunOptions = {}): Promise<CvjsResult> => {
  const transactions = options.transactions ?? {}
  const explorerLookups: Array<string> = []
  const steps: Array<CvjsStep> = []
  const logs: Array<string> = []

  const explorer: ExplorerApi = {
    apiType: "rpc",
    priority: 0,
    parsingFunction: async ({ transactionId }): Promise<ExplorerTxData> => {
      explorerLookups.push(transactionId)
      const tx = findTransaction(transactions, transactionId)
      if (tx === undefined) throw new Error(`offline test harness: unknown transaction ${transactionId}`)
      return { ...tx, revokedAddresses: [...(tx.revokedAddresses ?? [])] }
    }
  }

  const routes: Record<string, unknown> = { ...options.routes }
  for (const [did, didDocument] of Object.entries(options.didDocuments ?? {})) {
    routes[`${DID_RESOLVER_URL}/${did.split("#")[0]}`] = { didDocument }
  }

  const verify = async (): Promise<Pick<CvjsResult, "status" | "message" | "label" | "chains">> => {
    const resolver = cvjsCore().domain.did.didResolver
    const previousResolverUrl = resolver.url
    try {
      const certificate = new (cvjs().Certificate)(structuredClone(credential), {
        locale: "en-US",
        didResolverUrl: DID_RESOLVER_URL,
        explorerAPIs: [explorer]
      })
      await certificate.init()
      const final = await certificate.verify((update: StepUpdate) => {
        if (update.status !== "success" && update.status !== "failure") return
        steps.push({
          code: update.code,
          status: update.status,
          ...(update.errorMessage !== undefined ? { errorMessage: update.errorMessage } : {}),
          ...(update.parentStep !== undefined ? { parentStep: update.parentStep } : {})
        })
      })
      const status = final.status === "success" ? "success" : "failure"
      const message = typeof final.message === "string" ? final.message : final.message.description ?? final.message.label ?? ""
      const label = typeof final.message === "string" ? undefined : final.message.label
      return { status, message, label, chains: certificate.signers.map((s) => s.chain?.code) }
    } catch (e) {
      return { status: "error", message: errorMessage(e), label: undefined, chains: [] }
    } finally {
      resolver.url = previousResolverUrl
    }
  }

  const stubbed = await withFetchStub(routes, () =>
    captureConsole(logs, () => (options.baseShim === true ? withBaseShim(verify) : verify())))

  return {
    ...stubbed.value,
    steps,
    failedStep: steps.find((s) => s.status === "failure")?.code,
    fetched: stubbed.fetched,
    unexpected: stubbed.unexpected,
    explorerLookups,
    logs
  }
}
