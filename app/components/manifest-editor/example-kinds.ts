/** The examples the manifest editor can insert, with their button labels (examples.ts has the examples). */
export type ExampleKind = "block" | "script" | "widget" | "hook" | "adminPage";

export const EXAMPLE_LABELS: Record<ExampleKind, string> = {
  block: "Block",
  script: "Script embed",
  widget: "Floating widget",
  hook: "Hook",
  adminPage: "Admin page",
};

export const EXAMPLE_KINDS = Object.keys(EXAMPLE_LABELS) as ExampleKind[];
