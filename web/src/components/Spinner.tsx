// The shared loading indicator (spinner while auth loads, busy buttons, screen loading states).
export function Spinner({ label, size = 'md' }: { label?: string; size?: 'sm' | 'md' | 'lg' }) {
  return <span className={`spinner spinner-${size}`} role="progressbar" aria-label={label ?? 'Loading'} />;
}

export function FullPageSpinner({ label }: { label?: string }) {
  return (
    <div className="center-page">
      <Spinner size="lg" label={label} />
      {label && <p className="muted">{label}</p>}
    </div>
  );
}
