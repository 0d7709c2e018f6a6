#!/usr/bin/env node
// `npx storefront-apps <command>`: the CLI is TypeScript, run through tsx.
import { register } from "tsx/esm/api";
register();
await import("../src/cli/main.ts");
