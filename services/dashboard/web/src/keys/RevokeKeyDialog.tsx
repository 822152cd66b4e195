import type { Key } from "../api.ts";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";

/** "Revoke this key?", saying what stops working; the playground's key says it will be replaced. */
export function RevokeKeyDialog({ apiKey, onConfirm, onCancel }: { apiKey: Key | null; onConfirm: (key: Key) => Promise<void>; onCancel: () => void }) {
  return (
    <ConfirmDialog open={apiKey !== null} title={`Revoke “${apiKey?.name ?? ""}”?`} confirmLabel="Revoke key" onConfirm={() => apiKey && onConfirm(apiKey)} onCancel={onCancel}>
      {apiKey?.playground ? (
        <p>This is the key the console's playground uses. Revoking it stops it at once; the playground makes a new key the next time you use it.</p>
      ) : (
        <p>Requests that send the key ending in <code>…{apiKey?.lastFour}</code> are refused within seconds. This cannot be undone: a server still using it needs a new key.</p>
      )}
    </ConfirmDialog>
  );
}
