/**
 * The plans and what each allows (decisions §6), in one table.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export const Plan = Schema.Literal("developer", "starter", "institution", "industry")
export type Plan = typeof Plan.Type

/**
 * @since 0.1.0
 * @category models
 */
export const Environment = Schema.Literal("test", "live")
export type Environment = typeof Environment.Type

/**
 * @since 0.1.0
 * @category models
 */
export interface Limits {
  /** Credentials a tenant may issue per calendar month (UTC), both environments together. */
  readonly credentialsPerMonth: number
  /** API requests per minute per tenant, across endpoints. */
  readonly requestsPerMinute: number
  readonly liveEnvironment: boolean
  readonly ipAllowlist: boolean
  readonly verifyPageBranding: boolean
  /** How long audit rows are kept. */
  readonly auditRetentionDays: number
}

/**
 * @since 0.1.0
 * @category constants
 */
export const limits: { readonly [P in Plan]: Limits } = {
  developer: {
    credentialsPerMonth: 1_000,
    requestsPerMinute: 120,
    liveEnvironment: false,
    ipAllowlist: false,
    verifyPageBranding: false,
    auditRetentionDays: 90
  },
  starter: {
    credentialsPerMonth: 10_000,
    requestsPerMinute: 120,
    liveEnvironment: true,
    ipAllowlist: false,
    verifyPageBranding: true,
    auditRetentionDays: 90
  },
  institution: {
    credentialsPerMonth: 100_000,
    requestsPerMinute: 600,
    liveEnvironment: true,
    ipAllowlist: true,
    verifyPageBranding: true,
    auditRetentionDays: 365
  },
  industry: {
    credentialsPerMonth: 1_000_000,
    requestsPerMinute: 1_200,
    liveEnvironment: true,
    ipAllowlist: true,
    verifyPageBranding: true,
    auditRetentionDays: 365
  }
}

/**
 * The usage month of an instant: `YYYY-MM` in UTC.
 *
 * @since 0.1.0
 * @category combinators
 */
export const monthOf = (date: Date): string => date.toISOString().slice(0, 7)
