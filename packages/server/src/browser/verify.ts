/**
 * The verification page's script (bundled by `BrowserBundle`): runs the core verifier in the
 * browser, with its own reads of the DID documents, the status list and the chain's JSON-RPC,
 * and shows each step as it completes.
 *
 * - On a credential page (`/c/<id>`) it fetches the signed credential (`/c/<id>.json`) and
 *   re-checks it; the server's verdict stays on screen until the browser's replaces it.
 * - On `/verify` it checks a credential JSON the user drops, chooses or pastes.
 */
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as Verifier from "@sigil/core/Verifier"
import { Effect, Layer } from "effect"
import type { PageConfig, PageStep, Verdict } from "../VerifyPageText.js"
import { formatDate, formatDateTime, toVerdict, withRecordedRevocation } from "../VerifyPageText.js"
import * as Dom from "./dom.js"
// The same fetch-based ports as the `sigil verify` CLI: one implementation of verifying over the network.
import * as NetworkVerifier from "@sigil/client/NetworkVerifier"

const readConfig = (): PageConfig | undefined => {
  const node = document.getElementById("sigil-page")
  if (node?.textContent == null) return undefined
  try {
    return JSON.parse(node.textContent) as PageConfig
  } catch {
    return undefined
  }
}

const pendingSteps: ReadonlyArray<PageStep> = Verifier.STEPS.map((name) => ({ name, status: "pending", message: "Checking…" }))

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const now = () => formatDateTime(new Date().toISOString())

/**
 * Runs the verifier here, updating the step list as each step completes. Canonicalization is
 * jsonld.js, the reference implementation, rather than any fast path the server may use: the
 * point of this check is to depend on as little of Sigil as possible.
 */
const check = (config: PageConfig, document: unknown): Promise<Verdict> => {
  const layer = Layer.merge(
    Canonicalizer.layerJsonld,
    NetworkVerifier.ports({ rpc: config.rpc, localOrigins: [location.origin, config.publicBaseUrl] })
  )
  Dom.setSteps(pendingSteps)
  return Effect.runPromise(
    Verifier.verifyCredential(document, { onStep: (step) => Dom.setStep(step) }).pipe(Effect.provide(layer))
  ).then(toVerdict)
}

const BROWSER_SOURCE = "Checked by your browser, independently of Sigil's server"

const credentialPage = async (config: PageConfig) => {
  const context = { revocation: config.revocation, validFrom: config.validFrom, validUntil: config.validUntil }
  if (config.credentialUrl === undefined) return
  Dom.setSource("Checked by Sigil's server. Your browser is now checking it again, on its own…")
  const started = performance.now()
  try {
    const response = await fetch(config.credentialUrl, { headers: { accept: "application/ld+json, application/json" } })
    if (!response.ok) throw new Error(`the credential could not be downloaded (HTTP ${response.status})`)
    const verdict = withRecordedRevocation(await check(config, await response.json()), config.revocation)
    Dom.setBanner(verdict, context, "browser")
    const took = Math.round(performance.now() - started)
    Dom.setSource(`${BROWSER_SOURCE} (${now()}, ${took} ms)`)
    if (verdict.anchor !== undefined) Dom.setAnchor(verdict.anchor)
    // For measurements: when the browser's verdict appeared (ms since navigation) and how long the check took.
    document.body.dataset.verdictAtMs = String(Math.round(performance.now()))
    document.body.dataset.checkMs = String(took)
  } catch (error) {
    // Keep the server's verdict, and say plainly that the independent check did not run.
    if (config.server !== undefined) Dom.setSteps(config.server.steps)
    Dom.setSource(`Checked by Sigil's server only: your browser could not check it again (${errorText(error)}).`)
  }
}

const parseFailure = (message: string): Verdict => ({
  outcome: "failed",
  failedStep: "format",
  revocationReason: undefined,
  anchor: undefined,
  steps: Verifier.STEPS.map((name) =>
    name === "format"
      ? { name, status: "failed", message }
      : { name, status: "skipped", message: "not checked: an earlier step failed" }
  )
})

const text = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined)
const object = (u: unknown): Record<string, unknown> | undefined =>
  typeof u === "object" && u !== null && !Array.isArray(u) ? u as Record<string, unknown> : undefined

/** What the dropped credential says (shown as text, whatever it contains). */
const summary = (doc: unknown): ReadonlyArray<readonly [string, string]> => {
  const d = object(doc) ?? {}
  const subject = object(Array.isArray(d.credentialSubject) ? d.credentialSubject[0] : d.credentialSubject) ?? {}
  const achievement = object(subject.achievement) ?? {}
  const issuer = object(d.issuer)
  const facts: Array<readonly [string, string]> = []
  const add = (label: string, value: string | undefined) => value !== undefined && facts.push([label, value])
  add("Achievement", text(achievement.name) ?? text(d.name))
  add("Issuer", text(issuer?.name) ?? text(issuer?.id) ?? text(d.issuer))
  add("Recipient", text(subject.name) ?? (subject.identifier !== undefined ? "Named in the credential by a salted hash only" : undefined))
  const from = text(d.validFrom) ?? text(d.issuanceDate)
  const until = text(d.validUntil) ?? text(d.expirationDate)
  add("Valid from", from === undefined ? undefined : formatDate(from))
  add("Valid until", until === undefined ? undefined : formatDate(until))
  add("Credential id", text(d.id))
  return facts
}

/** Why a verdict has no anchoring record to show. */
const noAnchor = (verdict: Verdict): string => {
  const step = verdict.steps.find((s) => s.name === "anchor")
  if (step?.status === "failed") return "Not confirmed: see the “Blockchain anchor” step."
  if (verdict.failedStep !== undefined && Verifier.STEPS.indexOf(verdict.failedStep) < Verifier.STEPS.indexOf("anchor")) {
    return "Not checked: an earlier step failed."
  }
  return "No blockchain record yet."
}

const filePage = (config: PageConfig) => {
  const result = document.getElementById("result")
  const zone = document.getElementById("dropzone")
  const input = document.getElementById("file") as HTMLInputElement | null
  const paste = document.getElementById("paste") as HTMLTextAreaElement | null
  const button = document.getElementById("check")
  let running = false

  const run = async (raw: string, origin: string) => {
    if (running) return
    running = true
    result?.removeAttribute("hidden")
    Dom.setSource(`Checking ${origin} in your browser…`)
    try {
      let doc: unknown
      try {
        doc = JSON.parse(raw)
      } catch (error) {
        const verdict = parseFailure(`the file is not JSON: ${errorText(error)}`)
        Dom.setSteps(verdict.steps)
        Dom.setBanner(verdict, {}, "browser")
        Dom.setFacts("summary", [])
        Dom.setAnchor(undefined, "Not checked: the file is not a credential.")
        Dom.setSource(`${BROWSER_SOURCE} (${now()})`)
        return
      }
      Dom.setFacts("summary", summary(doc))
      Dom.setAnchor(undefined, "Reading…")
      const d = object(doc) ?? {}
      const verdict = await check(config, doc)
      Dom.setBanner(verdict, { validFrom: text(d.validFrom), validUntil: text(d.validUntil) }, "browser")
      Dom.setAnchor(verdict.anchor, noAnchor(verdict))
      Dom.setSource(`${BROWSER_SOURCE} (${now()})`)
    } catch (error) {
      Dom.setSource(`The check could not run: ${errorText(error)}`)
    } finally {
      running = false
      result?.scrollIntoView({ block: "start" })
    }
  }

  const readFile = (file: File | undefined) => {
    if (file !== undefined) void file.text().then((raw) => run(raw, file.name))
  }

  zone?.addEventListener("dragover", (event) => {
    event.preventDefault()
    zone.classList.add("dropzone--over")
  })
  zone?.addEventListener("dragleave", () => zone.classList.remove("dropzone--over"))
  zone?.addEventListener("drop", (event) => {
    event.preventDefault()
    zone.classList.remove("dropzone--over")
    const file = event.dataTransfer?.files[0]
    if (file !== undefined) readFile(file)
    else {
      const dropped = event.dataTransfer?.getData("text/plain")
      if (dropped !== undefined && dropped !== "") void run(dropped, "the dropped text")
    }
  })
  input?.addEventListener("change", () => readFile(input.files?.[0]))
  button?.addEventListener("click", () => {
    if (paste !== null && paste.value.trim() !== "") void run(paste.value, "the pasted credential")
  })
  document.body.dataset.ready = "true"
}

const config = readConfig()
if (config?.mode === "credential") void credentialPage(config)
else if (config?.mode === "file") filePage(config)
