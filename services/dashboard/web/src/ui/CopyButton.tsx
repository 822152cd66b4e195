import { useState } from "react";

/** Copies `text` to the clipboard and says so on the button; a refused clipboard still leaves the text selectable. */
export function CopyButton({ text, label = "Copy", className }: { text: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text).catch(() => {});
    setCopied(true);
    setTimeout(() => setCopied(false), 2_000);
  };
  return <button type="button" className={className} onClick={copy}>{copied ? "Copied" : label}</button>;
}
