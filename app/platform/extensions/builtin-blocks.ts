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
        url: { type: "string", title: "Image URL", format: "uri" },
        alt: { type: "string", title: "Alt text" },
      },
      required: ["url"],
    },
    defaults: { url: "https://images.example.com/banner.jpg", alt: "" },
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
