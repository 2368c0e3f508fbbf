/**
 * @since 0.1.0
 */
export * as PublicRoutes from "./PublicRoutes.js"
export * as Secrets from "./Secrets.js"
export * as Server from "./Server.js"
export * as ServerConfig from "./ServerConfig.js"
export * as Startup from "./Startup.js"
export * as WebhookTransportLive from "./WebhookTransportLive.js"
export * as Workers from "./Workers.js"
