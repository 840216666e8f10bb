// The submit button at the foot of a settings form, disabled while the form is being sent (or when the
// signed-in role may not change what the form shows).
export function SubmitRow({ label, disabled }: { label: string; disabled: boolean }) {
  return (
    <div className="settings-actions">
      <button type="submit" className="btn btn-primary" disabled={disabled}>
        {label}
      </button>
    </div>
  );
}
