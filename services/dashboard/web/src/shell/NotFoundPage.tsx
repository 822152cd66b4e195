import { Link, useLocation } from "react-router";
import { usePageTitle } from "../ui/use-page-title.ts";
import { PAGES } from "./pages.ts";

/** An address that is no page of the console: say so and offer the real ones. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  usePageTitle("Not found");
  return (
    <section>
      <h1>No such page</h1>
      <div className="empty card" data-testid="not-found">
        <p>The console has no page at <code>{pathname}</code>. Try one of these:</p>
        <ul className="link-list">
          {PAGES.map((p) => <li key={p.path}><Link to={p.path}>{p.label}</Link></li>)}
        </ul>
      </div>
    </section>
  );
}
