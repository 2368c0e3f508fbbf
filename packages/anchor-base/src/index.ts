/**
 * @since 0.1.0
 */
export * as BaseAnchor from "./BaseAnchor.js"
export * as ChainConfig from "./ChainConfig.js"
export * as Devnet from "./Devnet.js"
export * as EvmChainReader from "./EvmChainReader.js"
