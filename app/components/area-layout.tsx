import { useCallback, useEffect, useRef, useState } from "react";
import { Link, NavLink, Outlet, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";

export type NavItem = { to: string; label: string; end?: boolean; icon?: string; iconUrl?: string | null };

/** Below this width (px) the sidebar becomes a drawer behind a menu button (the CSS uses the same number). */
export const DRAWER_BELOW = 768;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The item a path belongs to: the longest `to` that is the path or a parent of it. */
function currentItem(items: NavItem[], pathname: string): NavItem | undefined {
  const path = pathname.replace(/\/+$/, "") || "/";
  return items
    .filter((i) => path === i.to || (!i.end && path.startsWith(`${i.to}/`)))
    .sort((a, b) => b.to.length - a.to.length)[0];
}

/**
 * The shell of the three audiences' areas: a sidebar of sections and the page beside it. Below
 * DRAWER_BELOW px the sidebar is a drawer: a menu button in a bar above the page opens it as a
 * modal dialog that keeps focus inside, closes on Escape, on the backdrop, on its close button
 * and when a link in it is followed, and gives focus back to the menu button (or, after a link,
 * to the new page).
 */
export function AreaLayout({
  title,
  subtitle,
  items,
  badge,
  extra,
  notice,
}: {
  title: string;
  subtitle?: string;
  items: NavItem[];
  badge?: string;
  extra?: { heading: string; items: NavItem[] };
  /** Shown above every page of the area (the sandbox's banner in the admin). */
  notice?: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const drawer = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLElement>(null);
  const focusAfterClose = useRef<"button" | "main" | null>(null);
  const location = useLocation();
  const account = useRouteLoaderData<{ account: { name: string; role: string } | null }>("root")?.account;
  const current = currentItem([...items, ...(extra?.items ?? [])], location.pathname);

  const close = useCallback((focus: "button" | "main") => {
    focusAfterClose.current = focus;
    setOpen(false);
  }, []);

  // a followed link (or any navigation) closes the drawer and starts the keyboard on the new page
  const isOpen = useRef(open);
  isOpen.current = open;
  useEffect(() => {
    if (isOpen.current) close("main");
  }, [location.pathname, location.search, close]);

  // open: focus moves in, the page behind stops scrolling; closed: focus goes where it belongs
  useEffect(() => {
    const root = document.documentElement;
    if (open) {
      root.classList.add("drawer-open");
      drawer.current?.querySelector<HTMLElement>(".drawer-close")?.focus();
      return () => root.classList.remove("drawer-open");
    }
    const target = focusAfterClose.current;
    focusAfterClose.current = null;
    if (target === "button") menuButton.current?.focus();
    else if (target === "main") main.current?.focus({ preventScroll: true });
    return undefined;
  }, [open]);

  // the window grown past the drawer's width: the sidebar is back, the dialog is gone
  useEffect(() => {
    if (!open) return undefined;
    const wide = window.matchMedia(`(min-width: ${DRAWER_BELOW}px)`);
    const onChange = () => wide.matches && setOpen(false);
    wide.addEventListener("change", onChange);
    return () => wide.removeEventListener("change", onChange);
  }, [open]);

  // while open: Escape closes, Tab and Shift+Tab go round the drawer's controls and never leave it
  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      const panel = drawer.current;
      if (event.key === "Escape") {
        event.preventDefault();
        close("button");
        return;
      }
      if (event.key !== "Tab" || !panel) return;
      const focusable = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
        (el) => el.getClientRects().length > 0,
      );
      if (focusable.length === 0) return;
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !panel.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, close]);

  const link = (item: NavItem, withImage: boolean) => (
    <NavLink
      key={item.to}
      to={item.to}
      end={item.end}
      className={({ isActive }) => (isActive ? "active" : undefined)}
      onClick={() => open && close("main")}
    >
      {withImage && item.iconUrl ? (
        <img src={item.iconUrl} alt="" className="nav-img" width={18} height={18} />
      ) : item.icon || withImage ? (
        <span className="nav-icon" aria-hidden>
          {item.icon ?? "◆"}
        </span>
      ) : null}
      {item.label}
    </NavLink>
  );

  return (
    <div className={open ? "area drawer-is-open" : "area"}>
      <div className="area-bar">
        <button
          ref={menuButton}
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls="area-drawer"
          onClick={() => setOpen(true)}
        >
          <span className="menu-icon" aria-hidden />
          Menu
        </button>
        <span className="area-bar-title">
          <strong>{title}</strong>
          {current ? <span className="muted"> · {current.label}</span> : null}
        </span>
      </div>
      {open ? <div className="drawer-backdrop" aria-hidden onClick={() => close("button")} /> : null}
      <aside
        ref={drawer}
        id="area-drawer"
        className="sidebar"
        aria-label={`${title} navigation`}
        role={open ? "dialog" : undefined}
        aria-modal={open ? true : undefined}
      >
        <div className="sidebar-head">
          <div className="sidebar-title">
            <strong>{title}</strong>
            {subtitle ? <span className="muted small">{subtitle}</span> : null}
            {badge ? <span className="badge">{badge}</span> : null}
          </div>
          <button type="button" className="drawer-close" aria-label="Close menu" onClick={() => close("button")}>
            <span aria-hidden>×</span>
          </button>
        </div>
        <nav>{items.map((item) => link(item, false))}</nav>
        {extra && extra.items.length ? (
          <nav aria-label={extra.heading} className="sidebar-extra">
            <span className="sidebar-heading">{extra.heading}</span>
            {extra.items.map((item) => link(item, true))}
          </nav>
        ) : null}
        <div className="drawer-foot">
          <Link to="/marketplace" onClick={() => open && close("main")}>
            Marketplace
          </Link>
          {account ? <span className="muted small">Signed in as {account.name}</span> : null}
        </div>
      </aside>
      <main ref={main} id="main" tabIndex={-1} className="area-main">
        {notice}
        <Outlet />
      </main>
    </div>
  );
}

/** The area of one signed-in audience whose layout route's loader answers `{ name }`: the name under the title. */
export function PersonalAreaLayout({
  title,
  items,
  notice,
}: {
  title: string;
  items: NavItem[];
  notice?: React.ReactNode;
}) {
  const { name } = useLoaderData<{ name: string }>();
  return <AreaLayout title={title} subtitle={name} items={items} notice={notice} />;
}

export function StatCard({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    <div className="stat">
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
      {hint ? <span className="muted small">{hint}</span> : null}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="empty">
      <strong>{title}</strong>
      {children ? <div className="muted">{children}</div> : null}
    </div>
  );
}
