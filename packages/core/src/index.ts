/**
 * @since 0.1.0
 */
export * as Anchor from "./Anchor.js"
export * as AnchorJournal from "./AnchorJournal.js"
export * as ChainReader from "./ChainReader.js"
export * as Chains from "./Chains.js"
export * as Hex from "./Hex.js"
export * as Ids from "./Ids.js"
export * as KeyVault from "./KeyVault.js"
