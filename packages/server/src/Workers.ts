/**
 * The workers of this process: the service's job pipeline (`@sigil/service/Pipeline`) with the
 * server's own parts — the e-mail template — and the options the configuration chose.
 *
 * @since 0.1.0
 */
import * as Pipeline from "@sigil/service/Pipeline"
import * as EmailMessage from "./EmailMessage.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options extends Omit<Pipeline.Options, "mail"> {
  /** Magic-link e-mails: delays between attempts, and how long a claim link works. */
  readonly mail: Omit<Pipeline.Options["mail"], "renderHtml">
}

/**
 * Runs the workers until interrupted (interruption releases the jobs in hand).
 *
 * @since 0.1.0
 * @category running
 */
export const run = (options: Options) => Pipeline.run({ ...options, mail: { ...options.mail, renderHtml: EmailMessage.render } })
