import { useState } from "react";
import type { CreatedKey } from "./CreateKeyForm.tsx";

/** The raw key of a key just created: shown this once, with a copy button. */
export function FreshKeyCard({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(created.key).catch(() => {});
    setCopied(true);
  };
  return (
    <div className="card fresh-key" data-testid="fresh-key">
      <p><strong>{created.name}</strong>: copy this key now. It is shown only once.</p>
      <code className="raw-key">{created.key}</code>
      <p className="muted">Send it with every request as <code>Authorization: Bearer &lt;key&gt;</code>, from a server: never put it in a web page or an app.</p>
      <div className="row">
        <button onClick={copy}>{copied ? "Copied" : "Copy"}</button>
        <button className="link" onClick={onDone}>Done</button>
      </div>
    </div>
  );
}
