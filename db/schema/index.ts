export * from "./accounts";
export * from "./catalog";
export * from "./apps";
export * from "./webhooks";
export * from "./relay";
export * from "./privacy";
export * from "./billing";
export * from "./versions";
