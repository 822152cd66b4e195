export { buildApp, type AppDeps, type AppConfig } from "./app.ts";
export { GatewayEnv, type GatewayConfig } from "./config.ts";
