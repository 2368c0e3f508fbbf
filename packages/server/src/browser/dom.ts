/**
 * Updates the verification page in place as the browser's check progresses. The markup is the
 * one `VerifyPageHtml` renders (same ids and classes); every value goes in through
 * `textContent` or attributes, never as markup.
 *
 * Part of the browser bundle.
 */
import type { StepName } from "@sigil/core/Verifier"
import type { PageAnchor, PageStep, Revocation, Verdict } from "../VerifyPageText.js"
import { banner, formatDateTime, ICONS, STEP_LABELS } from "../VerifyPageText.js"

const byId = (id: string): HTMLElement | null => document.getElementById(id)

const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: ReadonlyArray<Node | string>
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  for (const child of children) node.append(child)
  return node
}

const stepItem = (step: PageStep): HTMLLIElement =>
  element(
    "li",
    { class: `step step--${step.status}`, "data-step": step.name, "data-status": step.status },
    element("span", { class: "step-icon", "aria-hidden": "true" }, ICONS[step.status]),
    element(
      "div",
      { class: "step-text" },
      element("span", { class: "step-label" }, STEP_LABELS[step.name]),
      element("span", { class: "sr-only" }, ` ${step.status}: `),
      element("span", { class: "step-message" }, step.message)
    )
  )

/** Replaces the whole step list. */
export const setSteps = (steps: ReadonlyArray<PageStep>): void => {
  const list = byId("steps")
  if (list === null) return
  list.replaceChildren(...steps.map(stepItem))
}

/** Replaces one step (the list holds every step, in order, from `setSteps`). */
export const setStep = (step: PageStep): void => {
  const list = byId("steps")
  const current = list?.querySelector(`[data-step="${step.name as StepName}"]`)
  if (current === null || current === undefined) list?.append(stepItem(step))
  else current.replaceWith(stepItem(step))
}

export type Source = "server" | "browser" | "checking"

/** The banner for a verdict. */
export const setBanner = (
  verdict: Verdict,
  context: { readonly revocation?: Revocation | undefined; readonly validFrom?: string | undefined; readonly validUntil?: string | undefined },
  source: Source
): void => {
  const section = byId("status")
  if (section === null) return
  const { detail, title, tone } = banner(verdict, context)
  section.className = `banner banner--${tone}`
  section.dataset.outcome = verdict.outcome
  section.dataset.source = source
  byId("status-word")!.textContent = title
  byId("status-detail")!.textContent = detail
}

/** The small line above the banner's title: who checked, and when. */
export const setSource = (text: string): void => {
  const node = byId("status-source")
  if (node !== null) node.textContent = text
}

/** The anchoring record: chain, transaction (linked to the explorer when there is one), block, time. */
export const setAnchor = (anchor: PageAnchor | undefined, none = "No blockchain record yet."): void => {
  const body = byId("anchor-body")
  if (body === null) return
  if (anchor === undefined) {
    body.replaceChildren(element("p", { class: "muted" }, none))
    return
  }
  const row = (label: string, value: Node | string) => [element("dt", {}, label), element("dd", {}, value)]
  const tx = anchor.explorerUrl !== undefined && /^https?:\/\//.test(anchor.explorerUrl)
    ? element("a", { href: anchor.explorerUrl, rel: "noopener noreferrer", class: "hash" }, anchor.txHash)
    : element("code", { class: "hash" }, anchor.txHash)
  body.replaceChildren(element(
    "dl",
    { class: "facts" },
    ...row("Chain", anchor.chainLabel),
    ...row("Transaction", tx),
    ...(anchor.blockNumber === undefined ? [] : row("Block", String(anchor.blockNumber))),
    ...(anchor.blockTimestamp === undefined ? [] : row("Time", formatDateTime(anchor.blockTimestamp)))
  ))
}

/** A definition list of facts (the file page's summary of a dropped credential). */
export const setFacts = (id: string, facts: ReadonlyArray<readonly [string, string]>): void => {
  const node = byId(id)
  if (node === null) return
  node.replaceChildren(element("dl", { class: "facts" }, ...facts.flatMap(([k, v]) => [element("dt", {}, k), element("dd", {}, v)])))
}
