import { NavLink, Outlet } from "@remix-run/react";

export type NavItem = { to: string; label: string; end?: boolean; icon?: string; iconUrl?: string | null };

/** The shell of the three audiences' areas: a sidebar of sections and the page beside it. */
export function AreaLayout({ title, subtitle, items, badge, extra }: { title: string; subtitle?: string; items: NavItem[]; badge?: string; extra?: { heading: string; items: NavItem[] } }) {
  return (
    <div className="area">
      <aside className="sidebar" aria-label={`${title} navigation`}>
        <div className="sidebar-head">
          <strong>{title}</strong>
          {subtitle ? <span className="muted small">{subtitle}</span> : null}
          {badge ? <span className="badge">{badge}</span> : null}
        </div>
        <nav>
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className={({ isActive }) => (isActive ? "active" : undefined)}>
              {item.icon ? <span className="nav-icon" aria-hidden>{item.icon}</span> : null}
              {item.label}
            </NavLink>
          ))}
        </nav>
        {extra && extra.items.length ? (
          <nav aria-label={extra.heading} className="sidebar-extra">
            <span className="sidebar-heading">{extra.heading}</span>
            {extra.items.map((item) => (
              <NavLink key={item.to} to={item.to} className={({ isActive }) => (isActive ? "active" : undefined)}>
                {item.iconUrl ? <img src={item.iconUrl} alt="" className="nav-img" width={18} height={18} /> : <span className="nav-icon" aria-hidden>{item.icon ?? "◆"}</span>}
                {item.label}
              </NavLink>
            ))}
          </nav>
        ) : null}
      </aside>
      <main className="area-main">
        <Outlet />
      </main>
    </div>
  );
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
