// ESLint (flat config): typescript-eslint, React, React hooks and jsx-a11y, as issue 23 asks.
// Formatting is Prettier's (.prettierrc.json); nothing here argues with it.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "build/",
      "public/",
      ".cache/",
      ".data/",
      "test-results/",
      "playwright-report/",
      "packages/*/dist/",
      "bench/results/",
      "db/migrations/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,cjs,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
      // the sanitizers match control characters on purpose
      "no-control-regex": "off",
    },
  },
  {
    files: ["**/*.tsx"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    settings: { react: { version: "18.3" } },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat["jsx-runtime"].rules,
      // the two classic hook rules; v7's React Compiler rules judge patterns React 18 documents (hydration flags in effects)
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      ...jsxA11y.flatConfigs.recommended.rules,
      "react/prop-types": "off",
      // apostrophes and quotes in JSX text are text; React escapes them
      "react/no-unescaped-entities": "off",
      // a label's text may sit a few elements deep (a code name and its description)
      "jsx-a11y/label-has-associated-control": ["error", { assert: "either", depth: 4 }],
      // scrollable code blocks take the focus so that keyboard users can scroll them (axe: scrollable-region-focusable)
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: ["pre"] }],
    },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
