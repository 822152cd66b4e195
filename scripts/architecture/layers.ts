// The layers of the tree, bottom up (docs/architecture.md draws them). A workspace may
// import its own layer or a lower one, never a higher one. Pure layers hold rules and
// contracts only: they may depend on zod (and eval-stats on simple-statistics) and on each other, never on anything with I/O.

export interface Layer {
  name: string;
  /** True when nothing in it may do I/O: its outside dependencies are those of PURE_ALLOWED. */
  pure: boolean;
  workspaces: readonly string[];
}

export const LAYERS: readonly Layer[] = [
  { name: "contracts", pure: true, workspaces: ["@adrank/contracts", "@adrank/bus-contracts", "@adrank/ledger-domain"] },
  // api-docs builds the OpenAPI document from the contracts' schemas and zod alone (its one write,
  // print-openapi's stdout, is a script nothing imports), so it is pure and sits just above them.
  { name: "rules", pure: true, workspaces: ["@adrank/ssr", "@adrank/panel-domain", "@adrank/rank-assembly", "@adrank/request-records", "@adrank/eval-stats", "@adrank/api-docs", "@adrank/uncertainty"] },
  { name: "infrastructure", pure: false, workspaces: ["@adrank/runtime", "@adrank/api-keys", "@adrank/models", "@adrank/telemetry", "@adrank/messaging", "@adrank/images", "@adrank/db"] },
  { name: "clients", pure: false, workspaces: ["@adrank/ledger-client", "@adrank/panel-client", "@adrank/sdk", "@adrank/cli"] },
  {
    name: "services",
    pure: false,
    workspaces: ["@adrank/gateway", "@adrank/ledger-service", "@adrank/scorer-service", "@adrank/panel-voter-service", "@adrank/refinement-service", "@adrank/dashboard"],
  },
];

/**
 * What a pure workspace may import besides other pure workspaces: zod, and simple-statistics
 * (rank correlation and quantiles; arithmetic only, no I/O), which eval-stats builds on.
 */
export const PURE_ALLOWED = new Set(["zod", "simple-statistics"]);
