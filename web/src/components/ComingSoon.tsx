// Placeholder for screens and widgets not built yet: says so plainly, never shows made-up data.
// With a title it renders as a widget card (h3); without, as the body of a titled screen.
export function ComingSoon({ title }: { title?: string }) {
  return (
    <section className="card placeholder">
      {title && <h3>{title}</h3>}
      <p className="muted">Coming soon</p>
    </section>
  );
}
