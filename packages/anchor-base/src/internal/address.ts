/**
 * The Ethereum address of a tenant key, checksummed as viem writes addresses. The vault hands
 * out 33-byte compressed points; core's `Keys.ethereumAddress` decompresses and hashes them.
 */
import * as Keys from "@sigil/core/Keys"
import { type Address, getAddress } from "viem"

/** Accepts a compressed (33 bytes) or uncompressed (65 bytes, `04…`) public key. */
export const fromPublicKey = (publicKey: Uint8Array): Address => getAddress(Keys.ethereumAddress(publicKey))

/** Case-insensitive address equality. */
export const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()
