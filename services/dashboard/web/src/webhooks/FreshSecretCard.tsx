import { CopyButton } from "../ui/CopyButton.tsx";

/** A secret just made: shown this once, in a field that selects itself, with a copy button. */
export function FreshSecretCard({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div className="card fresh-key" data-testid="fresh-secret">
      <p><strong>Copy this signing secret now and store it with your webhook receiver. It will not be shown again.</strong></p>
      <label>
        <span className="visually-hidden">New signing secret</span>
        <input className="raw-key secret-field" name="signingSecret" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
      </label>
      <div className="row">
        <CopyButton text={secret} />
        <button type="button" className="link" onClick={onDone}>Done</button>
      </div>
    </div>
  );
}
