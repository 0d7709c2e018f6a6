const isWebUrl = (url: string | null | undefined): url is string =>
  typeof url === "string" && /^https?:\/\//i.test(url);

/** A stable colour per app name for the letter placeholder. */
function placeholderColor(name: string) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)!) % 360;
  return `hsl(${h} 55% 45%)`;
}

/** An app's icon (only an http(s) URL is loaded), or its first letter on a colour of its own. */
export function AppIcon({ name, iconUrl, large = false }: { name: string; iconUrl: string | null; large?: boolean }) {
  const size = large ? 64 : 48;
  if (isWebUrl(iconUrl))
    return (
      <img
        className={large ? "app-logo large" : "app-logo"}
        src={iconUrl}
        alt=""
        width={size}
        height={size}
        loading={large ? undefined : "lazy"}
      />
    );
  return (
    <span
      className={large ? "app-logo large placeholder" : "app-logo placeholder"}
      style={{ background: placeholderColor(name) }}
      aria-hidden
    >
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
