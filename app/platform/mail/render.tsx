/**
 * One template per message, two parts (decision 064): a template is a React element built from the
 * small set of parts below. The HTML part is `renderToStaticMarkup` of it inside the layout (inline
 * styles, tables, dark-mode colours, `lang`, a hidden preheader); the text part is the SAME element
 * walked by `renderText`, where each part says how it reads as plain text. Nothing is written twice.
 * React escapes every value in the HTML; the text part holds values as they are (text/plain).
 */
import { Children, Fragment, isValidElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";

type TextOf<P> = (props: P, text: (node: ReactNode) => string) => string;
/** A part: a component that also knows its plain-text reading. */
type Part<P> = ((props: P) => ReactElement) & { text: TextOf<P> };
const part = <P,>(html: (props: P) => ReactElement, text: TextOf<P>): Part<P> => Object.assign(html, { text });

// colours that read on light and dark backgrounds; clients that invert (Gmail, Outlook) keep contrast
const INK = "#1f2328";
const MUTED = "#57606a";
const ACCENT = "#0b5cad";
const font = "-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif";

export const Heading = part(
  ({ children }: { children: ReactNode }) => (
    <h1 style={{ margin: "0 0 16px", fontFamily: font, fontSize: "22px", lineHeight: "28px", color: INK }}>
      {children}
    </h1>
  ),
  ({ children }, text) => {
    const line = text(children);
    return `${line}\n${"=".repeat(Math.min(line.length, 60))}\n\n`;
  },
);

export const Paragraph = part(
  ({ children }: { children: ReactNode }) => (
    <p style={{ margin: "0 0 16px", fontFamily: font, fontSize: "16px", lineHeight: "24px", color: INK }}>
      {children}
    </p>
  ),
  ({ children }, text) => `${text(children)}\n\n`,
);

export const Strong = part(
  ({ children }: { children: ReactNode }) => <strong>{children}</strong>,
  ({ children }, text) => text(children),
);

/** The message's one call to action: a bulletproof button in HTML, the label and the address in text. */
export const Button = part(
  ({ href, children }: { href: string; children: ReactNode }) => (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ margin: "8px 0 24px" }}>
      <tbody>
        <tr>
          <td style={{ borderRadius: "6px", background: ACCENT }}>
            <a
              href={href}
              style={{
                display: "inline-block",
                padding: "12px 20px",
                fontFamily: font,
                fontSize: "16px",
                fontWeight: 600,
                color: "#ffffff",
                textDecoration: "none",
                borderRadius: "6px",
              }}
            >
              {children}
            </a>
          </td>
        </tr>
      </tbody>
    </table>
  ),
  ({ href, children }, text) => `${text(children)}:\n${href}\n\n`,
);

export const Link = part(
  ({ href, children }: { href: string; children: ReactNode }) => (
    <a href={href} style={{ color: ACCENT }}>
      {children}
    </a>
  ),
  ({ href, children }, text) => {
    const label = text(children);
    return label === href ? href : `${label} (${href})`;
  },
);

/** Label/value rows (order lines, totals, an app's details). */
export const Rows = part(
  ({ rows, caption }: { rows: { label: string; value: string; strong?: boolean }[]; caption: string }) => (
    <table
      role="table"
      cellPadding={0}
      cellSpacing={0}
      style={{ width: "100%", margin: "0 0 16px", borderCollapse: "collapse", fontFamily: font, fontSize: "15px" }}
    >
      <caption style={{ textAlign: "left", padding: "0 0 8px", color: MUTED, fontSize: "13px" }}>{caption}</caption>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            <th
              scope="row"
              style={{
                textAlign: "left",
                fontWeight: r.strong ? 700 : 400,
                padding: "6px 8px 6px 0",
                borderTop: "1px solid #d0d7de",
                color: INK,
              }}
            >
              {r.label}
            </th>
            <td
              style={{
                textAlign: "right",
                fontWeight: r.strong ? 700 : 400,
                padding: "6px 0",
                borderTop: "1px solid #d0d7de",
                color: INK,
                whiteSpace: "nowrap",
              }}
            >
              {r.value}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
  ({ rows, caption }) => {
    const width = Math.max(...rows.map((r) => r.label.length), 10);
    return `${caption}\n${rows.map((r) => `  ${r.label.padEnd(width)}  ${r.value}`).join("\n")}\n\n`;
  },
);

/** Small print under a rule (why the reader got this, how to stop it). */
export const Footer = part(
  ({ children }: { children: ReactNode }) => (
    <p
      style={{
        margin: "24px 0 0",
        paddingTop: "16px",
        borderTop: "1px solid #d0d7de",
        fontFamily: font,
        fontSize: "13px",
        lineHeight: "20px",
        color: MUTED,
      }}
    >
      {children}
    </p>
  ),
  ({ children }, text) => `--\n${text(children)}\n`,
);

/** The plain-text reading of an element tree built from the parts above (and plain text, fragments, <br/>). */
export function renderText(node: ReactNode): string {
  const walk = (n: ReactNode): string => {
    if (n === null || n === undefined || typeof n === "boolean") return "";
    if (typeof n === "string" || typeof n === "number" || typeof n === "bigint") return String(n);
    if (Array.isArray(n)) return n.map(walk).join("");
    if (!isValidElement(n)) return "";
    const { type, props } = n as ReactElement<{ children?: ReactNode }>;
    if (type === Fragment) return Children.toArray(props.children).map(walk).join("");
    if (typeof type === "function") {
      const t = (type as unknown as { text?: TextOf<unknown> }).text;
      if (t) return t(props, walk);
      return walk((type as (p: unknown) => ReactNode)(props));
    }
    if (type === "br") return "\n";
    return walk(props.children);
  };
  return (
    walk(node)
      .split("\n")
      .map((l) => l.replace(/\s+$/, ""))
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim() + "\n"
  );
}

export type Rendered = { subject: string; html: string; text: string };

/**
 * The two parts of a message: `body` inside the HTML layout (language, colour schemes, the preheader
 * that clients show beside the subject, the sender's name at the top) and as text.
 */
export function renderMessage(input: { subject: string; brand: string; preheader: string; body: ReactElement }): Rendered {
  const html =
    "<!DOCTYPE html>" +
    renderToStaticMarkup(
      <html lang="en">
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <meta name="supported-color-schemes" content="light dark" />
          <title>{input.subject}</title>
        </head>
        <body style={{ margin: 0, padding: 0, background: "#f6f8fa" }}>
          <div style={{ display: "none", maxHeight: 0, overflow: "hidden" }}>{input.preheader}</div>
          <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ background: "#f6f8fa" }}>
            <tbody>
              <tr>
                <td align="center" style={{ padding: "24px 12px" }}>
                  <table
                    role="presentation"
                    width="100%"
                    cellPadding={0}
                    cellSpacing={0}
                    style={{ maxWidth: "560px", background: "#ffffff", borderRadius: "8px", border: "1px solid #d0d7de" }}
                  >
                    <tbody>
                      <tr>
                        <td style={{ padding: "24px 28px" }}>
                          <p
                            style={{
                              margin: "0 0 20px",
                              fontFamily: font,
                              fontSize: "14px",
                              fontWeight: 700,
                              color: MUTED,
                              letterSpacing: "0.02em",
                            }}
                          >
                            {input.brand}
                          </p>
                          {input.body}
                        </td>
                      </tr>
                    </tbody>
                  </table>
                </td>
              </tr>
            </tbody>
          </table>
        </body>
      </html>,
    );
  return { subject: input.subject, html, text: `${input.brand}\n\n${renderText(input.body)}` };
}
