import { NavLink, Outlet } from "react-router";
import { PAGES } from "./pages.ts";

/** The header every signed-in page shares: brand, one link per page, who is signed in. */
export function AppShell({ email, onSignOut }: { email: string; onSignOut: () => Promise<void> }) {
  return (
    <div className="shell">
      <header>
        <NavLink to="/playground" className="brand">adrank</NavLink>
        <nav aria-label="Console">
          {PAGES.map((p) => (
            <NavLink key={p.path} to={p.path} className={({ isActive }) => (isActive ? "tab active" : "tab")}>
              {p.label}
            </NavLink>
          ))}
        </nav>
        <span className="who">{email}</span>
        <button className="link on-dark" onClick={() => void onSignOut()}>Sign out</button>
      </header>
      <main>
        <Outlet />
      </main>
    </div>
  );
}
