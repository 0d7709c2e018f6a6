/** The built-in blocks of the site builder, with the JSON Schemas of their settings panels. */
export const BUILTIN_BLOCK_TYPES = [
  {
    type: "heading",
    name: "Heading",
    description: "A large title",
    icon: "H",
    schema: {
      type: "object",
      properties: { text: { type: "string", title: "Text", maxLength: 200 } },
      required: ["text"],
    },
    defaults: { text: "New heading" },
  },
  {
    type: "text",
    name: "Text",
    description: "A paragraph",
    icon: "¶",
    schema: {
      type: "object",
      properties: { text: { type: "string", title: "Text", maxLength: 5000 } },
      required: ["text"],
    },
    defaults: { text: "Write something about your shop." },
  },
  {
    type: "image",
    name: "Image",
    description: "A picture with alt text",
    icon: "▣",
    schema: {
      type: "object",
      properties: {
        // an address on the web or a path on the shop's own origin (the picture the platform ships, an upload)
        url: { type: "string", title: "Image URL", format: "uri-reference", maxLength: 2000 },
        alt: { type: "string", title: "Alt text", maxLength: 300 },
      },
      required: ["url"],
    },
    // a picture the platform ships (public/images/blocks/), until the merchant uploads theirs (decision 060)
    defaults: { url: "/images/blocks/picture.svg", alt: "" },
  },
  {
    type: "product-grid",
    name: "Product grid",
    description: "Your newest products",
    icon: "▦",
    schema: {
      type: "object",
      properties: { limit: { type: "integer", title: "How many products", minimum: 1, maximum: 48 } },
    },
    defaults: { limit: 8 },
  },
] as const;
