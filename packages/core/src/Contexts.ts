/**
 * The JSON-LD contexts Sigil reads, bundled so that canonicalization never touches the
 * network, and the document loader that serves them and refuses every other URL.
 *
 * The files under `contexts/` are byte copies of the published documents; `contexts/SOURCES.md`
 * says where each came from.
 *
 * @since 0.1.0
 */
import ctx_purl_imsglobal_org_spec_ob_v3p0_context_3_0_1 from "./contexts/purl.imsglobal.org_spec_ob_v3p0_context-3.0.1.json" with { type: "json" }
import ctx_purl_imsglobal_org_spec_ob_v3p0_context_3_0_2 from "./contexts/purl.imsglobal.org_spec_ob_v3p0_context-3.0.2.json" with { type: "json" }
import ctx_purl_imsglobal_org_spec_ob_v3p0_context_3_0_3 from "./contexts/purl.imsglobal.org_spec_ob_v3p0_context-3.0.3.json" with { type: "json" }
import ctx_purl_imsglobal_org_spec_ob_v3p0_context from "./contexts/purl.imsglobal.org_spec_ob_v3p0_context.json" with { type: "json" }
import ctx_purl_imsglobal_org_spec_ob_v3p0_extensions from "./contexts/purl.imsglobal.org_spec_ob_v3p0_extensions.json" with { type: "json" }
import ctx_w3id_org_blockcerts_v3_0_alpha from "./contexts/w3id.org_blockcerts_v3.0-alpha.json" with { type: "json" }
import ctx_w3id_org_blockcerts_v3_0_beta from "./contexts/w3id.org_blockcerts_v3.0-beta.json" with { type: "json" }
import ctx_w3id_org_blockcerts_v3_1 from "./contexts/w3id.org_blockcerts_v3.1.json" with { type: "json" }
import ctx_w3id_org_blockcerts_v3_2 from "./contexts/w3id.org_blockcerts_v3.2.json" with { type: "json" }
import ctx_w3id_org_blockcerts_v3 from "./contexts/w3id.org_blockcerts_v3.json" with { type: "json" }
import ctx_w3id_org_openbadges_v2 from "./contexts/w3id.org_openbadges_v2.json" with { type: "json" }
import ctx_w3id_org_security_data_integrity_v1 from "./contexts/w3id.org_security_data-integrity_v1.json" with { type: "json" }
import ctx_w3id_org_security_data_integrity_v2 from "./contexts/w3id.org_security_data-integrity_v2.json" with { type: "json" }
import ctx_w3id_org_security_multikey_v1 from "./contexts/w3id.org_security_multikey_v1.json" with { type: "json" }
import ctx_w3id_org_security_suites_chained_2021_v1 from "./contexts/w3id.org_security_suites_chained-2021_v1.json" with { type: "json" }
import ctx_w3id_org_security_suites_ed25519_2020_v1 from "./contexts/w3id.org_security_suites_ed25519-2020_v1.json" with { type: "json" }
import ctx_w3id_org_security_suites_merkle_2019_v1 from "./contexts/w3id.org_security_suites_merkle-2019_v1.json" with { type: "json" }
import ctx_w3id_org_security_suites_secp256k1_2019_v1 from "./contexts/w3id.org_security_suites_secp256k1-2019_v1.json" with { type: "json" }
import ctx_w3id_org_security_v1 from "./contexts/w3id.org_security_v1.json" with { type: "json" }
import ctx_w3id_org_security_v2 from "./contexts/w3id.org_security_v2.json" with { type: "json" }
import ctx_w3id_org_vc_status_list_2021_v1 from "./contexts/w3id.org_vc_status-list_2021_v1.json" with { type: "json" }
import ctx_www_w3_org_2018_credentials_v1 from "./contexts/www.w3.org_2018_credentials_v1.json" with { type: "json" }
import ctx_www_w3_org_ns_credentials_status_v1 from "./contexts/www.w3.org_ns_credentials_status_v1.json" with { type: "json" }
import ctx_www_w3_org_ns_credentials_undefined_terms_v2 from "./contexts/www.w3.org_ns_credentials_undefined-terms_v2.json" with { type: "json" }
import ctx_www_w3_org_ns_credentials_v2 from "./contexts/www.w3.org_ns_credentials_v2.json" with { type: "json" }
import ctx_www_w3_org_ns_did_v1 from "./contexts/www.w3.org_ns_did_v1.json" with { type: "json" }

/**
 * Context URLs Sigil's own documents use.
 *
 * @since 0.1.0
 * @category constants
 */
export const VC_V2 = "https://www.w3.org/ns/credentials/v2"
/** @since 0.1.0 @category constants */
export const VC_V1 = "https://www.w3.org/2018/credentials/v1"
/** @since 0.1.0 @category constants */
export const OB_V3 = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"
/** @since 0.1.0 @category constants */
export const STATUS_LIST_2021 = "https://w3id.org/vc/status-list/2021/v1"
/** @since 0.1.0 @category constants */
export const DID_V1 = "https://www.w3.org/ns/did/v1"
/** @since 0.1.0 @category constants */
export const MULTIKEY_V1 = "https://w3id.org/security/multikey/v1"
/** @since 0.1.0 @category constants */
export const SECP256K1_2019 = "https://w3id.org/security/suites/secp256k1-2019/v1"
/** @since 0.1.0 @category constants */
export const OPEN_BADGES_V2 = "https://w3id.org/openbadges/v2"
/** @since 0.1.0 @category constants */
export const BLOCKCERTS_V3 = "https://w3id.org/blockcerts/v3"

const byUrl: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ["https://ns.did.ai/suites/secp256k1-2019/v1", ctx_w3id_org_security_suites_secp256k1_2019_v1],
  ["https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.1.json", ctx_purl_imsglobal_org_spec_ob_v3p0_context_3_0_1],
  ["https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.2.json", ctx_purl_imsglobal_org_spec_ob_v3p0_context_3_0_2],
  ["https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json", ctx_purl_imsglobal_org_spec_ob_v3p0_context_3_0_3],
  ["https://purl.imsglobal.org/spec/ob/v3p0/context.json", ctx_purl_imsglobal_org_spec_ob_v3p0_context],
  ["https://purl.imsglobal.org/spec/ob/v3p0/context/ob_v3p0.jsonld", ctx_purl_imsglobal_org_spec_ob_v3p0_context],
  ["https://purl.imsglobal.org/spec/ob/v3p0/extensions.json", ctx_purl_imsglobal_org_spec_ob_v3p0_extensions],
  ["https://w3id.org/blockcerts/schema/3.0-alpha/context.json", ctx_w3id_org_blockcerts_v3_0_alpha],
  ["https://w3id.org/blockcerts/schema/3.0-beta/context.json", ctx_w3id_org_blockcerts_v3_0_beta],
  ["https://w3id.org/blockcerts/schema/3.0/context.json", ctx_w3id_org_blockcerts_v3],
  ["https://w3id.org/blockcerts/schema/3.1/context.json", ctx_w3id_org_blockcerts_v3_1],
  ["https://w3id.org/blockcerts/schema/3.2/context.json", ctx_w3id_org_blockcerts_v3_2],
  ["https://w3id.org/blockcerts/v3", ctx_w3id_org_blockcerts_v3],
  ["https://w3id.org/blockcerts/v3.0-alpha", ctx_w3id_org_blockcerts_v3_0_alpha],
  ["https://w3id.org/blockcerts/v3.0-beta", ctx_w3id_org_blockcerts_v3_0_beta],
  ["https://w3id.org/blockcerts/v3.1", ctx_w3id_org_blockcerts_v3_1],
  ["https://w3id.org/blockcerts/v3.2", ctx_w3id_org_blockcerts_v3_2],
  ["https://w3id.org/openbadges/v2", ctx_w3id_org_openbadges_v2],
  ["https://openbadgespec.org/v2/context.json", ctx_w3id_org_openbadges_v2],
  ["https://w3id.org/security/data-integrity/v1", ctx_w3id_org_security_data_integrity_v1],
  ["https://w3id.org/security/data-integrity/v2", ctx_w3id_org_security_data_integrity_v2],
  ["https://w3id.org/security/multikey/v1", ctx_w3id_org_security_multikey_v1],
  ["https://w3id.org/security/suites/chained-2021/v1", ctx_w3id_org_security_suites_chained_2021_v1],
  ["https://w3id.org/security/suites/ed25519-2020/v1", ctx_w3id_org_security_suites_ed25519_2020_v1],
  ["https://w3id.org/security/suites/merkle-2019/v1", ctx_w3id_org_security_suites_merkle_2019_v1],
  ["https://w3id.org/security/suites/secp256k1-2019/v1", ctx_w3id_org_security_suites_secp256k1_2019_v1],
  ["https://w3id.org/security/v1", ctx_w3id_org_security_v1],
  ["https://w3id.org/security/v2", ctx_w3id_org_security_v2],
  ["https://w3id.org/vc/status-list/2021/v1", ctx_w3id_org_vc_status_list_2021_v1],
  ["https://www.blockcerts.org/schema/3.0-alpha/context.json", ctx_w3id_org_blockcerts_v3_0_alpha],
  ["https://www.blockcerts.org/schema/3.0-beta/context.json", ctx_w3id_org_blockcerts_v3_0_beta],
  ["https://www.blockcerts.org/schema/3.0/context.json", ctx_w3id_org_blockcerts_v3],
  ["https://www.blockcerts.org/schema/3.1/context.json", ctx_w3id_org_blockcerts_v3_1],
  ["https://www.blockcerts.org/schema/3.2/context.json", ctx_w3id_org_blockcerts_v3_2],
  ["https://www.w3.org/2018/credentials/v1", ctx_www_w3_org_2018_credentials_v1],
  ["https://www.w3.org/ns/credentials/status/v1", ctx_www_w3_org_ns_credentials_status_v1],
  ["https://www.w3.org/ns/credentials/undefined-terms/v2", ctx_www_w3_org_ns_credentials_undefined_terms_v2],
  ["https://www.w3.org/ns/credentials/v2", ctx_www_w3_org_ns_credentials_v2],
  ["https://www.w3.org/ns/did/v1", ctx_www_w3_org_ns_did_v1],
]);

/**
 * Every URL the loader serves.
 *
 * @since 0.1.0
 * @category constants
 */
export const urls: ReadonlyArray<string> = [...byUrl.keys()]

/**
 * The bundled context document for a URL, if Sigil has it.
 *
 * @since 0.1.0
 * @category lookups
 */
export const get = (url: string): unknown => byUrl.get(url)

/**
 * What jsonld.js expects from a document loader.
 *
 * @since 0.1.0
 * @category models
 */
export interface RemoteDocument {
  readonly contextUrl: null
  readonly documentUrl: string
  readonly document: unknown
}

/**
 * Raised (as a rejected promise, which jsonld.js expects) for any URL that is not bundled.
 *
 * @since 0.1.0
 * @category errors
 */
export class ContextNotBundled extends Error {
  constructor(readonly url: string) {
    super(`JSON-LD context not available offline: ${url}`)
    this.name = "ContextNotBundled"
  }
}

/**
 * The offline document loader: bundled contexts only. Refusing everything else is what makes
 * canonicalization reproducible years later and keeps it from fetching attacker-chosen URLs.
 *
 * @since 0.1.0
 * @category loaders
 */
export const documentLoader = async (url: string): Promise<RemoteDocument> => {
  const document = byUrl.get(url)
  if (document === undefined) throw new ContextNotBundled(url)
  return { contextUrl: null, documentUrl: url, document }
}
