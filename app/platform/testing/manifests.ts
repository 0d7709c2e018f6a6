/** Pieces of app manifests for the tests: an app at https://app.example with a block and a chat widget. */

/** The "stars" block (its page at https://app.example/blocks/stars); `over` changes or adds fields. */
export const starsBlock = <T extends Record<string, unknown>>(over: T = {} as T) => ({
  blockType: "stars",
  name: "Stars",
  renderUrl: "https://app.example/blocks/stars",
  ...over,
});

/** The "chat" FLOATING_WIDGET at the bottom right (https://app.example/chat); `over` changes or adds fields. */
export const chatEmbed = <T extends Record<string, unknown>>(over: T = {} as T) => ({
  embedType: "chat",
  name: "Chat",
  kind: "FLOATING_WIDGET",
  position: "bottom_right",
  renderUrl: "https://app.example/chat",
  ...over,
});
