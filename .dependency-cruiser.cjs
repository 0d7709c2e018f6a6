/**
 * The import rules of docs/architecture.md ("Who may import whom"), checked in CI:
 *   npx depcruise --config .dependency-cruiser.cjs app storefront db jobs packages server.ts
 * (`npm run lint:imports`, part of `npm run lint`, which .ci/run runs).
 */
const { layers } = require("./app/platform/layers.json");

/** Tests and their helpers stand above every layer: they may import any domain. */
const NOT_TESTS = "\\.test(-helpers)?\\.tsx?$";
const ranked = layers.flat();
/**
 * One rule a domain: it imports nothing of its own layer's other domains nor of any layer above
 * (docs/architecture.md, "Domains in layers").
 */
const layerRules = layers.flatMap((layer, i) =>
  layer.map((domain) => {
    const notBelow = layers
      .slice(i)
      .flat()
      .filter((d) => d !== domain);
    return {
      name: `layer-${domain}`,
      severity: "error",
      comment: `app/platform/${domain}/ (layer ${i + 1}) imports only the domains of the layers below it: not ${notBelow.join(", ")}.`,
      from: { path: `^app/platform/${domain}/`, pathNot: NOT_TESTS },
      to: { path: `^app/platform/(${notBelow.join("|")})/` },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "layer-unranked",
      severity: "error",
      comment: "Every folder of app/platform has its place in app/platform/layers.json.",
      from: { path: `^app/platform/(?!(${ranked.join("|")})/)[^/]+/` },
      to: {},
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "No import circles in our code (type-only imports included: they are a circle of meaning).",
      from: { pathNot: "node_modules" },
      to: { circular: true, pathNot: "node_modules" },
    },
    {
      name: "platform-not-upward",
      severity: "error",
      comment:
        "The platform's domains (app/platform/) are below the storefront runtime, the routes and the components: they never import them.",
      from: { path: "^app/platform/" },
      to: { path: "^(storefront/|app/routes/|app/components/)" },
    },
    {
      name: "db-is-the-bottom",
      severity: "error",
      comment:
        "db/ holds the schema, the migrations and the client: it imports nothing of the app, the storefront or the jobs.",
      from: { path: "^db/" },
      to: { path: "^(app/|storefront/|jobs/)" },
    },
    {
      name: "packages-stand-alone",
      severity: "error",
      comment:
        "packages/ (the app SDK) is published on its own: what it ships (src/, bin/) never imports the platform. " +
        "Its tests and its generator script (test/, scripts/: not published) check the SDK against the real platform and may (decision 026).",
      from: { path: "^packages/[^/]+/", pathNot: "^packages/[^/]+/(test|scripts)/" },
      to: { path: "^(app/|storefront/|db/|jobs/|server\\.ts)" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing.",
      from: {},
      to: { couldNotResolve: true, dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|public/build|\\.data|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".cjs", ".mjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
