import fs from "node:fs";
import { execSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { prepareTemplate, startPrivateCluster } from "./cluster";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

/** Starts the shared cluster, prepares the template, and builds the Remix app when missing. */
export default async function setup(project: TestProject) {
  if (!fs.existsSync("build/index.js"))
    execSync("npx remix build", { stdio: "inherit", env: { ...process.env, VITE_CJS_IGNORE_WARNING: "1" } });
  // each run has its own cluster: parallel runs on one machine cannot stop each other's server
  const cluster = await startPrivateCluster("test-postgres");
  const template = await prepareTemplate(cluster.adminUrl, "t_");
  project.provide("pgAdminUrl", cluster.adminUrl);
  project.provide("pgTemplate", template);
  return async () => {
    await cluster.remove();
  };
}
