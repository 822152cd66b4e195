import { existsSync, readdirSync } from "node:fs";
import { fromRoot } from "./paths.ts";

/** What the deployment files must agree on for each adrank service. */
export interface DeployedService {
  name: string;
  /** The port of /healthz and /readyz, and the variable that sets it. */
  port: number;
  portVariable: "PORT" | "HEALTH_PORT" | "DASHBOARD_PORT";
  /** Reachable from outside the cluster. */
  public: boolean;
}

export const deployedServices: DeployedService[] = [
  { name: "gateway", port: 8080, portVariable: "PORT", public: true },
  { name: "dashboard", port: 8090, portVariable: "DASHBOARD_PORT", public: true },
  { name: "ledger", port: 9464, portVariable: "HEALTH_PORT", public: false },
  { name: "scorer", port: 9464, portVariable: "HEALTH_PORT", public: false },
  { name: "panel-voter", port: 9464, portVariable: "HEALTH_PORT", public: false },
  { name: "refinement", port: 9464, portVariable: "HEALTH_PORT", public: false },
];

/** Services scaled by KEDA on their JOBS consumer's lag. */
export const lagScaledServices = ["scorer", "panel-voter"];

/** Every services/<name> with an entry point: each must appear in the deployment files. */
export function servicesInRepository(): string[] {
  return readdirSync(fromRoot("services"), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(fromRoot(`services/${d.name}/src/main.ts`)))
    .map((d) => d.name);
}
