export * from "./accounts";
export * from "./catalog";
export * from "./apps";
export * from "./webhooks";
export * from "./relay";
export * from "./versions";
