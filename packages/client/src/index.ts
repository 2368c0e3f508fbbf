/**
 * @since 0.1.0
 */
export * as Cli from "./Cli.js"
export * as Csv from "./Csv.js"
export * as IssueCsv from "./IssueCsv.js"
export * as NetworkVerifier from "./NetworkVerifier.js"
export * as PromiseClient from "./PromiseClient.js"
export * as Retry from "./Retry.js"
export * as SigilClient from "./SigilClient.js"
export * as WebhookReceiver from "./WebhookReceiver.js"
export * as Webhooks from "./Webhooks.js"
