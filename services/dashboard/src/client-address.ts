// The one definition lives in the runtime package: the gateway counts per address too.
export { addressKey } from "@adrank/runtime";
