import type { Key } from "../api.ts";
import { dateTime } from "../ui/format-date.ts";

/** One key: its name (and, for the playground's key, what it is), look-up prefix and last four, dates, state. */
export function KeyRow({ apiKey, onRevoke }: { apiKey: Key; onRevoke: (key: Key) => void }) {
  const k = apiKey;
  return (
    <tr className={k.revokedAt ? "revoked" : ""} data-key-name={k.name} data-playground-key={k.playground || undefined}>
      <td>
        {k.name}
        {k.playground && (
          <>
            {" "}<span className="badge playground" data-testid="playground-key-badge">playground</span>
            <small className="key-note" data-testid="playground-key-note">
              Used by the playground in this console; its requests are billed like any other key's.
              {k.revokedAt ? " The playground makes a new one the next time you use it." : " Revoking it is safe: the playground makes a new one the next time you use it."}
            </small>
          </>
        )}
      </td>
      <td><code>{k.prefix}…{k.lastFour}</code></td>
      <td className="date">{dateTime(k.createdAt)}</td>
      <td className="date">{dateTime(k.lastUsedAt)}</td>
      <td className="actions">
        {k.revokedAt
          ? <span className="badge" title={`Revoked ${dateTime(k.revokedAt)}`}>revoked</span>
          : <button className="danger" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>Revoke</button>}
      </td>
    </tr>
  );
}
