import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";

/** "Rotate the signing secret?", saying that the old one keeps signing for a while. */
export function RotateSecretDialog({ open, graceHours, onConfirm, onCancel }: { open: boolean; graceHours: number; onConfirm: () => Promise<void>; onCancel: () => void }) {
  return (
    <ConfirmDialog open={open} title="Rotate the signing secret?" confirmLabel="Rotate secret" onConfirm={onConfirm} onCancel={onCancel}>
      <p>
        A new secret is made and shown once. The old secret keeps signing deliveries alongside the new one for {graceHours} h (each delivery then
        carries two <code>v1</code> signatures), so you can move your receiver over; after that only the new secret signs.
      </p>
    </ConfirmDialog>
  );
}
