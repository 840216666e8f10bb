// Placeholder for screens and widgets not built yet: says so plainly, never shows made-up data.
export function ComingSoon({ title, level = 2 }: { title: string; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="card placeholder">
      <Heading>{title}</Heading>
      <p className="muted">Coming soon</p>
    </section>
  );
}
