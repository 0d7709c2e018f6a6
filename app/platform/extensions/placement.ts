/**
 * Where a FLOATING_WIDGET shows on the storefront (decision 061): the merchant's corner, offset
 * above the bottom edge and phones switch, stored with the embed's merchant settings; without one,
 * the manifest's corner at the edge, phones included. No server code.
 */
import type { WidgetPlacement } from "../../../db/schema";
import type { EmbedDef } from "../shapes/manifest";

/** The most a merchant may lift a widget above the bottom edge (px). */
export const MAX_WIDGET_OFFSET = 400;

export function placementOf(
  def: Pick<EmbedDef, "kind" | "position">,
  stored: WidgetPlacement | null | undefined,
): WidgetPlacement | null {
  if (def.kind !== "FLOATING_WIDGET") return null;
  return (
    stored ?? {
      corner: def.position === "bottom_left" ? "bottom_left" : "bottom_right",
      offset: 0,
      showOnPhones: true,
    }
  );
}
