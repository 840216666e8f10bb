// A screen that fails to load or render (its code could not be fetched while the gateway was away, or a
// bug) shows a message with a way forward instead of taking the whole dashboard down to a blank page.
import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

export class ScreenErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('Screen failed:', error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="unreachable" role="alert">
        <strong>This screen could not be loaded</strong>
        <p>The gateway may be unreachable. Try again when it answers.</p>
        <button type="button" className="btn btn-secondary" onClick={() => window.location.reload()}>
          Try again
        </button>
      </div>
    );
  }
}
