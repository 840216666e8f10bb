// Shown by the settings tabs until the settings arrive, or when they could not be loaded.
import { Spinner } from '../../components/Spinner.tsx';

export function SettingsLoadState({ failed }: { failed: boolean }) {
  if (failed) return <p className="settings-error" role="alert">Failed to load settings</p>;
  return (
    <div className="center-block">
      <Spinner />
    </div>
  );
}
