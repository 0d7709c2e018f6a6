import fs from "node:fs";
import { execSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { prepareTemplate, startTestCluster } from "./cluster";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

/** Starts the shared cluster, prepares the template, and builds the Remix app when missing. */
export default async function setup(project: TestProject) {
  if (!fs.existsSync("build/index.js")) execSync("npx remix build", { stdio: "inherit" });
  const { adminUrl, embedded } = await startTestCluster("test-postgres");
  const template = await prepareTemplate(adminUrl, "t_");
  project.provide("pgAdminUrl", adminUrl);
  project.provide("pgTemplate", template);
  return async () => {
    await embedded?.stop();
  };
}
